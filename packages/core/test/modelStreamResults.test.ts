import { describe, expect, it } from 'vitest';
import type { Model, ModelResponse, ModelStreamEvent } from '@baton/types';
import { Agent, run } from '../src/index.js';

/**
 * A reader of a run's events is handed, for each raw model event, a result object: for a native
 * async generator the provider's own (it is new for each read and nobody else sees it), otherwise
 * one of the run's own. A provider's iterator that shares or freezes its results keeps them as they were.
 */

const usage = { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const EVENTS: ModelStreamEvent[] = [
  { type: 'response_started' },
  { type: 'output_text_delta', delta: 'he' },
  { type: 'output_text_delta', delta: 'llo' },
  {
    type: 'response_done',
    response: { id: 'resp_1', usage, output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hello' }] }] },
  },
];

function streamingModel(stream: () => AsyncIterable<ModelStreamEvent>): Model {
  return {
    getResponse: (): Promise<ModelResponse> => Promise.reject(new Error('streamed only')),
    getStreamedResponse: stream,
  };
}

/** An iterator whose every result is frozen, and the same object each time an event repeats. */
function frozenResults(): AsyncIterable<ModelStreamEvent> {
  const results = EVENTS.map((value) => Object.freeze({ done: false as const, value }));
  const end = Object.freeze({ done: true as const, value: undefined });
  let index = 0;
  return {
    [Symbol.asyncIterator]: () => ({ next: async () => results[index++] ?? end }),
  };
}

/** One mutable result object for every read, as some hand-written iterators keep. */
function sharedResult(): AsyncIterable<ModelStreamEvent> {
  const result: IteratorResult<ModelStreamEvent> = { done: false, value: EVENTS[0]! };
  let index = 0;
  return {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        if (index === EVENTS.length) return { done: true, value: undefined };
        result.value = EVENTS[index++]!;
        return result;
      },
    }),
  };
}

/** A native async generator whose `next` the provider wrapped on the instance, returning frozen results. */
function wrappedGenerator(): AsyncIterable<ModelStreamEvent> {
  async function* events() {
    yield* EVENTS;
  }
  const generator = events();
  const next = generator.next.bind(generator);
  Object.defineProperty(generator, 'next', { value: async () => Object.freeze(await next()) });
  return generator;
}

async function* nativeGenerator(): AsyncGenerator<ModelStreamEvent> {
  yield* EVENTS;
}

describe('the results a reader is handed for a model stream', () => {
  it.each([
    ['a native async generator', nativeGenerator],
    ['an iterator of frozen results', frozenResults],
    ['an iterator reusing one result object', sharedResult],
    ['a native generator with its own next, frozen results', wrappedGenerator],
  ])('%s: each event once, in order, each in a result of its own', async (_name, stream) => {
    const result = await run(new Agent({ name: 'A', model: streamingModel(stream) }), 'hi', { stream: true });
    const iterator = result[Symbol.asyncIterator]();
    const read: IteratorResult<unknown>[] = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) read.push(next);
    await result.completed;
    const raw = read.map((r) => r.value as { type: string; data?: ModelStreamEvent }).filter((event) => event.type === 'raw_model_stream_event');
    expect(raw.map((event) => event.data)).toEqual(EVENTS);
    expect(new Set(read).size).toBe(read.length);
    expect(read.every((r) => r.done === false)).toBe(true);
    expect(result.finalOutput).toBe('hello');
  });

  it('the frozen results of a provider are left as they were', async () => {
    const results: IteratorResult<ModelStreamEvent>[] = [];
    const recording = (): AsyncIterable<ModelStreamEvent> => {
      const inner = frozenResults()[Symbol.asyncIterator]();
      return { [Symbol.asyncIterator]: () => ({ next: async () => (results.push(await inner.next()), results.at(-1)!) }) };
    };
    const result = await run(new Agent({ name: 'A', model: streamingModel(recording) }), 'hi', { stream: true });
    for await (const _event of result);
    await result.completed;
    expect(results.map((r) => r.value)).toEqual([...EVENTS, undefined]);
  });
});
