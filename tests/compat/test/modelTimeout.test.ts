import { describe, expect, it } from 'vitest';
import { onBoth, outcomeOf } from './sdks.js';

// modelSettings.timeoutMs on both SDKs: a table of models (one that ignores the abort, one that
// honours it, a stream, and the OpenAI Responses model over a stand-in client) and of run modes.
// Both time the call in the run, whatever the model; the error, and whether the late answer is
// taken, are compared.

type Json = Record<string, any>;
const SLOW_MS = 300;
const sleepOr = (ms: number, signal: AbortSignal | undefined, honour: boolean) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    if (honour)
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' }));
      });
  });

function customModel(sdk: any, testing: any, honour: boolean) {
  return {
    async getResponse(request: Json) {
      await sleepOr(SLOW_MS, request.signal, honour);
      return { usage: new sdk.Usage({ requests: 1 }), output: [testing.assistantMessage('slow')], responseId: 'r' };
    },
    async *getStreamedResponse(request: Json) {
      await sleepOr(SLOW_MS, request.signal, honour);
      yield { type: 'response_done', response: { id: 'r', usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: [testing.assistantMessage('slow')] } };
    },
  };
}

function openaiModel(sdk: any, streamed: boolean) {
  const create = async (_body: unknown, options: Json) => {
    await sleepOr(SLOW_MS, options?.signal, true);
    const response = { id: 'r', object: 'response', status: 'completed', output: [], usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } };
    if (!streamed) return response;
    return (async function* () {
      yield { type: 'response.completed', response, sequence_number: 0 };
    })();
  };
  return new sdk.OpenAIResponsesModel({ baseURL: 'https://api.openai.com/v1', responses: { create } }, 'gpt-4.1');
}

const models = ['custom, ignores the abort', 'custom, honours the abort', 'OpenAI Responses'] as const;
const modes = ['plain', 'streamed'] as const;

describe('modelSettings.timeoutMs (same on both SDKs)', () => {
  it.each(models.flatMap((model) => modes.map((mode) => [model, mode] as const)))('%s, %s run', async (modelKind, mode) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const model = modelKind === 'OpenAI Responses' ? openaiModel(sdk, mode === 'streamed') : customModel(sdk, testing, modelKind === 'custom, honours the abort');
      const agent = new sdk.Agent({ name: 'A', model: model as never, modelSettings: { timeoutMs: 40, retry: { maxRetries: 0 } } as never });
      const outcome =
        mode === 'streamed'
          ? await outcomeOf(
              sdk.run(agent, 'go', { stream: true }).then(async (result) => {
                await outcomeOf((async () => {
                  for await (const _event of result);
                })());
                await result.completed;
                return result.finalOutput;
              }),
            )
          : await outcomeOf(sdk.run(agent, 'go').then((result) => result.finalOutput));
      if (outcome.ok) return { finalOutput: outcome.value };
      const error = outcome.error as Json;
      return { error: outcome.name, message: error.message, timeoutMs: error.timeoutMs, code: error.code };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toMatchObject({ error: 'ModelTimeoutError', timeoutMs: 40, code: 'ETIMEDOUT' });
  });

  it.each([0, -1, Number.NaN, 2 ** 31])('timeoutMs %s is refused before the model is called', async (timeoutMs) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const model = new testing.ScriptedModel([[testing.assistantMessage('never')]]);
      const outcome = await outcomeOf(sdk.run(new sdk.Agent({ name: 'A', model, modelSettings: { timeoutMs } as never }), 'go'));
      return { outcome: outcome.ok ? 'ok' : `${outcome.name}: ${(outcome.error as Error).message}`, calls: (model as any).calls.length };
    });
    expect(both.baton).toEqual(both.reference);
  });
});
