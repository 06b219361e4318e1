import type { AgentInputItem } from '@baton/types';

/** One entry of the input the session is to keep: a new-input item (by its place in the new input) or an item a filter added. */
type Kept = { readonly owned: number } | { readonly injected: AgentInputItem };

/**
 * What a run's session keeps as its new input when a `callModelInputFilter` shapes what the model
 * is sent, as the reference keeps it: the model's version of each new-input item (a redaction
 * stays redacted, a dropped item is not kept), and the items the filter added, in the order the
 * model last saw them. History the filter passed on is the session's already; the run's own items
 * are saved as they were made.
 *
 * Each turn's filtered input is `record`ed with the source of each item (the item of the turn's
 * input it stands for, or undefined for an item the filter added). A new-input item the latest
 * filter left out keeps the version an earlier turn sent; the items an earlier turn added are
 * replaced by the latest turn's.
 */
export class FilteredSessionInput {
  /** Each new-input object, with the places it holds in the new input (an object given twice holds two). */
  readonly #places = new Map<AgentInputItem, number[]>();
  /** The latest version the model was sent of each new-input item, by its place. */
  readonly #sent = new Map<number, AgentInputItem>();
  #order: Kept[] = [];
  #recorded = false;

  constructor(newInput: readonly AgentInputItem[]) {
    newInput.forEach((item, place) => {
      const places = this.#places.get(item);
      if (places === undefined) this.#places.set(item, [place]);
      else places.push(place);
    });
  }

  /** One turn's filtered input (`filtered[i]` standing for `sources[i]`, undefined when the filter added it). */
  record(sources: readonly (AgentInputItem | undefined)[], filtered: readonly AgentInputItem[]): void {
    this.#recorded = true;
    const seen = new Map<AgentInputItem, number>();
    const represented = new Set<number>();
    const current: Kept[] = [];
    filtered.forEach((item, index) => {
      const source = sources[index];
      if (source === undefined) {
        current.push({ injected: structuredClone(item) });
        return;
      }
      const occurrence = seen.get(source) ?? 0;
      seen.set(source, occurrence + 1);
      const place = this.#places.get(source)?.[occurrence];
      // History, or the run's own items: not the new input's to keep.
      if (place === undefined) return;
      represented.add(place);
      this.#sent.set(place, structuredClone(item));
      current.push({ owned: place });
    });
    this.#order = [...this.#order.filter((kept) => 'owned' in kept && !represented.has(kept.owned)), ...current];
  }

  /** The input to save: undefined until a filter ran (then nothing of the new input is saved: the model never saw it). */
  items(): AgentInputItem[] | undefined {
    if (!this.#recorded) return undefined;
    return this.#order.flatMap((kept) => {
      if ('injected' in kept) return [structuredClone(kept.injected)];
      const sent = this.#sent.get(kept.owned);
      return sent === undefined ? [] : [structuredClone(sent)];
    });
  }
}
