import type { ModelRequest, ModelRetryAdvice, ModelRetryAdviceRequest } from '@baton/types';
import type { ScriptedRetryAdvice } from '../scriptedSteps.js';

interface Entry {
  readonly request: ModelRequest;
  readonly streamed: boolean;
  readonly advice: ScriptedRetryAdvice | undefined;
}

/**
 * The advice scripted with each error a call threw, answered once per throw. One error object may
 * be scripted for several calls; an advice request is matched to the throw it is about: the same
 * mode (streamed or not) and the very request object, else a request built from the same input,
 * settings, tools and handoffs, else the oldest throw in that mode.
 */
export class RetryAdviceBook {
  readonly #entries = new Map<unknown, Entry[]>();

  record(error: unknown, request: ModelRequest, streamed: boolean, advice: ScriptedRetryAdvice | undefined): void {
    const entries = this.#entries.get(error) ?? [];
    entries.push({ request, streamed, advice });
    this.#entries.set(error, entries);
  }

  async answer(asked: ModelRetryAdviceRequest): Promise<ModelRetryAdvice | undefined> {
    const entries = this.#entries.get(asked.error);
    if (!entries) return undefined;
    const sameMode = (entry: Entry) => entry.streamed === asked.stream;
    const matchers = [
      (entry: Entry) => sameMode(entry) && entry.request === asked.request,
      (entry: Entry) => sameMode(entry) && sameInputs(entry.request, asked.request),
      sameMode,
    ];
    const index = matchers.map((matches) => entries.findIndex(matches)).find((found) => found !== -1) ?? -1;
    if (index === -1) return undefined;
    const [entry] = entries.splice(index, 1);
    if (entries.length === 0) this.#entries.delete(asked.error);
    const advice = entry?.advice;
    return typeof advice === 'function' ? advice(asked) : advice;
  }
}

function sameInputs(a: ModelRequest, b: ModelRequest): boolean {
  return a.input === b.input && a.modelSettings === b.modelSettings && a.tools === b.tools && a.handoffs === b.handoffs;
}
