import { describe, expect, it } from 'vitest';
import { onBoth, outcomeOf } from './sdks.js';

// A streamed run the caller stops while its model call is in flight: how `completed` settles (quietly,
// with the caller's reason, or with the call's own error), and the usage kept. The same programs on
// both SDKs; a table of reasons and of ways the model call ends.

type Reason = 'default' | 'custom' | 'string';
type Ending = 'stream goes on' | 'throws its own error' | 'throws an AbortError' | 'throws after response_done' | 'tool throws after the abort';

const reasons: Reason[] = ['default', 'custom', 'string'];
const endings: Ending[] = ['stream goes on', 'throws its own error', 'throws an AbortError', 'throws after response_done', 'tool throws after the abort'];
const usage = { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 };

describe('a streamed run stopped by its caller while the model streams (same on both SDKs)', () => {
  it.each(reasons.flatMap((reason) => endings.flatMap((ending) => [[reason, ending, 'untimed'], [reason, ending, 'timed']] as const)))('reason %s, the call %s (%s)', async (reasonKind, ending, timing) => {
    const both = await onBoth(async ({ sdk }) => {
      const controller = new AbortController();
      const reason = reasonKind === 'custom' ? new Error('custom reason') : reasonKind === 'string' ? 'because' : undefined;
      const abort = () => controller.abort(reason);
      const tool = sdk.tool({
        name: 't',
        description: 't',
        parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
        strict: true,
        execute: async () => {
          abort();
          throw new Error('tool broke');
        },
      } as never);
      async function* events(): AsyncGenerator<any> {
        yield { type: 'response_started' };
        yield { type: 'output_text_delta', delta: 'he' };
        if (ending === 'stream goes on') {
          abort();
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        if (ending === 'throws its own error') {
          abort();
          throw new Error('stream broke');
        }
        if (ending === 'throws an AbortError') {
          abort();
          throw Object.assign(new Error('aborted'), { name: 'AbortError' });
        }
        const output =
          ending === 'tool throws after the abort'
            ? [{ type: 'function_call', id: 'c', callId: 'c', name: 't', arguments: '{}', status: 'completed' }]
            : [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hello' }] }];
        yield { type: 'response_done', response: { id: 'r', usage, output } };
        if (ending === 'throws after response_done') {
          abort();
          throw new Error('after done');
        }
      }
      const model = { getResponse: async () => Promise.reject(new Error('streams only')), getStreamedResponse: () => events() };
      const modelSettings = timing === 'timed' ? { timeoutMs: 10_000 } : {};
      const result = await sdk.run(new sdk.Agent({ name: 'A', model: model as never, tools: [tool], modelSettings }), 'go', { stream: true, signal: controller.signal });
      const read = await outcomeOf((async () => {
        for await (const _event of result);
      })());
      const completed = await outcomeOf(result.completed);
      return {
        read: read.ok,
        completed: completed.ok ? 'quiet' : completed.error === reason ? 'the reason' : (completed.error as Error).message,
        cancelled: result.cancelled,
        totalTokens: result.state.usage.totalTokens,
      };
    });
    if (timing === 'timed' && ending === 'stream goes on') {
      // A deliberate difference (README): Baton waits for the timed call it stopped, which answers
      // all the same, and counts its usage; the reference stops waiting at once.
      expect({ ...both.baton, totalTokens: undefined }).toEqual({ ...both.reference, totalTokens: undefined });
      expect([both.baton.totalTokens, both.reference.totalTokens]).toEqual([2, 0]);
      return;
    }
    expect(both.baton).toEqual(both.reference);
  });
});

// A call timed by the run (modelSettings.timeoutMs) ends with the caller's abort; an untimed one
// with what the model threw (here the response's unsuccessful terminal state).
describe('the OpenAI Responses model stopped after an unsuccessful terminal event (same on both SDKs)', () => {
  it.each(reasons.flatMap((reason) => [[reason, 'timed'], [reason, 'untimed']] as const))('reason %s, a call %s: completed, cancelled and the usage billed', async (reasonKind, timing) => {
    const both = await onBoth(async ({ sdk }) => {
      const controller = new AbortController();
      const reason = reasonKind === 'custom' ? new Error('custom reason') : reasonKind === 'string' ? 'because' : undefined;
      async function* stream() {
        yield {
          type: 'response.incomplete',
          response: { id: 'resp_1', status: 'incomplete', output: [], usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 } },
          sequence_number: 0,
        };
      }
      const inner = new (sdk as any).OpenAIResponsesModel({ baseURL: 'https://api.openai.com/v1', responses: { create: async () => stream() } }, 'gpt-4.1');
      const model = {
        getResponse: (request: unknown) => inner.getResponse(request),
        async *getStreamedResponse(request: unknown) {
          for await (const event of inner.getStreamedResponse(request)) {
            yield event;
            if (event.type === 'model' && event.event.type === 'response.incomplete') controller.abort(reason);
          }
        },
      };
      const modelSettings = timing === 'timed' ? { timeoutMs: 10_000 } : {};
      const result = await sdk.run(new sdk.Agent({ name: 'A', model: model as never, modelSettings }), 'go', { stream: true, signal: controller.signal });
      const completed = await outcomeOf(result.completed);
      return {
        completed: completed.ok ? 'quiet' : completed.error === reason ? 'the reason' : (completed.error as Error).message,
        cancelled: result.cancelled,
        usage: { requests: result.state.usage.requests, totalTokens: result.state.usage.totalTokens },
      };
    });
    expect(both.baton).toEqual(both.reference);
  });
});
