import type { AgentInputItem } from '@baton/types';
import { dedupeFilteredInput } from './dedupeFilteredInput.js';
import { itemContentKey } from '../../../state/internal/itemContentKey.js';

/**
 * Which item of the turn's input each item of a `callModelInputFilter`'s answer stands for (so the
 * session keeps the model's version of the new input), matched as the reference matches them:
 * 1. the very objects the filter was handed, each at most as often as it was handed (a further
 *    occurrence is the filter's own addition);
 * 2. then an item equal in content to a handed item not matched yet;
 * 3. then, in order, the handed items still unmatched for the answer's items still unmatched (a
 *    filter that rebuilt each item, say to redact it, keeps each in its place).
 * Undefined: an item the filter added. `handed[i]` is what the filter got for `given[i]` (a copy,
 * or the item itself when the filter keeps identities).
 */
export function filteredInputSources(
  given: readonly AgentInputItem[],
  handed: readonly AgentInputItem[],
  answer: readonly AgentInputItem[],
): (AgentInputItem | undefined)[] {
  const originalOf = new Map<AgentInputItem, AgentInputItem>();
  const handedCount = new Map<AgentInputItem, number>();
  handed.forEach((item, index) => {
    originalOf.set(item, given[index]!);
    handedCount.set(item, (handedCount.get(item) ?? 0) + 1);
  });
  const unmatched = new UnmatchedOriginals(dedupeFilteredInput(handed).map((item) => originalOf.get(item) ?? item));
  const sources: (AgentInputItem | undefined)[] = new Array(answer.length).fill(undefined);
  const extraCopies = new Set<number>();
  const used = new Map<AgentInputItem, number>();
  answer.forEach((item, index) => {
    const original = originalOf.get(item);
    if (original === undefined) return;
    const times = used.get(item) ?? 0;
    if (times >= (handedCount.get(item) ?? 0)) {
      extraCopies.add(index);
      return;
    }
    used.set(item, times + 1);
    unmatched.take(original);
    sources[index] = original;
  });
  // Equal content before any fallback: a copy the filter prepended must not take a later item's place.
  answer.forEach((item, index) => {
    if (sources[index] === undefined && !extraCopies.has(index)) sources[index] = unmatched.takeEqualTo(item);
  });
  answer.forEach((item, index) => {
    if (sources[index] === undefined && !extraCopies.has(index) && typeof item === 'object' && item !== null) sources[index] = unmatched.takeNext();
  });
  return sources;
}

/** The handed items no answer item stands for yet, in order and by content. */
class UnmatchedOriginals {
  readonly #inOrder: AgentInputItem[];
  readonly #byContent = new Map<string, AgentInputItem[]>();

  constructor(originals: readonly AgentInputItem[]) {
    this.#inOrder = originals.filter((item) => typeof item === 'object' && item !== null);
    for (const item of this.#inOrder) {
      const key = itemContentKey(item);
      if (key === undefined) continue;
      const same = this.#byContent.get(key);
      if (same === undefined) this.#byContent.set(key, [item]);
      else same.push(item);
    }
  }

  take(original: AgentInputItem): void {
    const at = this.#inOrder.indexOf(original);
    if (at !== -1) this.#inOrder.splice(at, 1);
    const key = itemContentKey(original);
    const same = key === undefined ? undefined : this.#byContent.get(key);
    const inSame = same?.indexOf(original) ?? -1;
    if (inSame !== -1) same!.splice(inSame, 1);
  }

  takeEqualTo(item: AgentInputItem): AgentInputItem | undefined {
    const key = itemContentKey(item);
    const found = key === undefined ? undefined : this.#byContent.get(key)?.[0];
    if (found !== undefined) this.take(found);
    return found;
  }

  takeNext(): AgentInputItem | undefined {
    const next = this.#inOrder[0];
    if (next !== undefined) this.take(next);
    return next;
  }
}
