import { describe, expect, it } from 'vitest';
import { ScriptedModel, modelStream } from '@baton/testing';
import { Agent, run } from '../src/index.js';

// `modelSettings.preserveRawUsage` in a streamed run, as the reference keeps it: the response in
// `rawResponses` holds a detached copy of the provider's usage object when asked for, none otherwise.

const providerUsage = () => ({ input_tokens: 3, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2 });

function agentFor(preserveRawUsage: boolean | undefined, rawUsage: unknown = providerUsage()) {
  const done = {
    type: 'response_done' as const,
    response: {
      id: 'r1',
      usage: { requests: 1, inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      rawUsage: rawUsage as Record<string, unknown>,
      output: [{ type: 'message' as const, role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'output_text' as const, text: 'done' }] }],
    },
  };
  const modelSettings = preserveRawUsage === undefined ? {} : { preserveRawUsage };
  return new Agent({ name: 'A', model: new ScriptedModel([modelStream([done])]), modelSettings });
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

  it('is left out when the provider’s usage is not plain JSON (a cycle)', async () => {
    const cyclic: Record<string, unknown> = { input_tokens: 3 };
    cyclic.self = cyclic;
    const result = await run(agentFor(true, cyclic), 'hi', { stream: true });
    await result.completed;
    expect(result.rawResponses[0]!).not.toHaveProperty('rawUsage');
  });
});
