import { describe, expect, it } from 'vitest';
import type { Model, ModelStreamEvent } from '@baton/types';
import { Agent, run } from '../src/index.js';

// `modelSettings.preserveRawUsage` in a streamed run, as the reference keeps it: the response in
// `rawResponses` holds a detached copy of the provider's usage object when asked for, none otherwise.

const providerUsage = () => ({ input_tokens: 3, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2 });

/** An agent whose model streams one answer; `rawUsage` is set on the response as given (a getter, when a function). */
function agentFor(preserveRawUsage: boolean | undefined, rawUsage: unknown = providerUsage()) {
  const response: Record<string, unknown> = {
    id: 'r1',
    usage: { requests: 1, inputTokens: 3, outputTokens: 2, totalTokens: 5 },
    output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }],
  };
  if (typeof rawUsage === 'function') Object.defineProperty(response, 'rawUsage', { enumerable: true, get: rawUsage as () => unknown });
  else response.rawUsage = rawUsage;
  const model: Model = {
    getResponse: () => Promise.reject(new Error('streamed runs only')),
    async *getStreamedResponse() {
      yield { type: 'response_done', response } as ModelStreamEvent;
    },
  };
  const modelSettings = preserveRawUsage === undefined ? {} : { preserveRawUsage };
  return new Agent({ name: 'A', model, modelSettings });
}

describe('raw usage of a streamed response', () => {
  it.each([
    ['asked for', true, providerUsage()],
    ['not asked for', false, undefined],
    ['left unset', undefined, undefined],
  ])('%s', async (_label, preserveRawUsage, expected) => {
    const result = await run(agentFor(preserveRawUsage), 'hi', { stream: true });
    await result.completed;
    expect(result.rawResponses[0]!.rawUsage).toEqual(expected);
  });

  it('is a copy: changing the event the caller read leaves it as the provider sent it', async () => {
    const result = await run(agentFor(true), 'hi', { stream: true });
    for await (const event of result) {
      if (event.type === 'raw_model_stream_event' && event.data.type === 'response_done') {
        (event.data.response.rawUsage!.input_tokens_details as { cached_tokens: number }).cached_tokens = 99;
      }
    }
    await result.completed;
    expect(result.rawResponses[0]!.rawUsage).toEqual(providerUsage());
  });

  const cyclic = () => {
    const usage: Record<string, unknown> = { input_tokens: 3 };
    usage.self = usage;
    return usage;
  };
  // A getter on the response that throws when read, as a provider's lazy usage might.
  const throwing = () => () => {
    throw new Error('raw usage is unavailable');
  };
  it.each([
    ['a cycle', cyclic],
    ['a Map', () => new Map([['input_tokens', 3]])],
    ['a getter that throws', throwing],
  ])('is left out when the provider’s usage is not plain JSON (%s), and the run goes on', async (_label, usage) => {
    const result = await run(agentFor(true, usage()), 'hi', { stream: true });
    await result.completed;
    expect(result.finalOutput).toBe('done');
    expect(result.rawResponses[0]!).not.toHaveProperty('rawUsage');
  });
});
