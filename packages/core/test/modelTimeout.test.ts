import { describe, expect, it } from 'vitest';
import { ScriptedModel, aborted, assistantMessage, modelResponder, modelStream, type RecordedModelCall } from '@baton/testing';
import { ModelTimeoutError, UserError, type ModelStreamEvent } from '@baton/types';
import { Agent, retryPolicies, run } from '../src/index.js';

/**
 * \`modelSettings.timeoutMs\` is timed by the run for every model (a scripted one here), as the
 * reference times it: from the attempt's start until its answer (a stream's response_done).
 */

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const done = (text: string): ModelStreamEvent => ({
  type: 'response_done',
  response: { id: 'r', usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }, output: [assistantMessage(text)] },
});
const settled = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

describe('a model call past modelSettings.timeoutMs', () => {
  it('a model that ignores the abort and answers late: the run fails with ModelTimeoutError, the late answer not taken', async () => {
    const model = new ScriptedModel([modelResponder(async () => (await later(150), [assistantMessage('late')]))]);
    const agent = new Agent({ name: 'A', model, modelSettings: { timeoutMs: 20 } });
    const outcome = await settled(run(agent, 'go'));
    expect(outcome.ok).toBe(false);
    const error = (outcome as { error: ModelTimeoutError }).error;
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 20, code: 'ETIMEDOUT', message: 'Model call timed out after 20ms.' });
  });

  it('a model that honours the abort: its signal’s reason is the ModelTimeoutError the run fails with; its own error becomes the cause', async () => {
    let reason: unknown;
    const own = Object.assign(new Error('aborted by the provider'), { name: 'AbortError' });
    const model = new ScriptedModel([
      modelResponder(async (call) => {
        await aborted(call.request.signal);
        reason = call.request.signal!.reason;
        throw own;
      }),
    ]);
    const outcome = await settled(run(new Agent({ name: 'A', model, modelSettings: { timeoutMs: 20 } }), 'go'));
    const error = (outcome as { error: ModelTimeoutError }).error;
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(reason).toBeInstanceOf(ModelTimeoutError);
    expect(error.cause).toBe(own);
  });

  it('a model that rethrows the signal’s reason fails the run with that very error', async () => {
    const model = new ScriptedModel([modelResponder(async (call) => (await aborted(call.request.signal), Promise.reject(call.request.signal!.reason)))]);
    const outcome = await settled(run(new Agent({ name: 'A', model, modelSettings: { timeoutMs: 20 } }), 'go'));
    const error = (outcome as { error: ModelTimeoutError }).error;
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(error.cause).toBeUndefined();
  });

  it('an answer within the time is the answer', async () => {
    const model = new ScriptedModel([modelResponder(async () => (await later(5), [assistantMessage('in time')]))]);
    expect((await run(new Agent({ name: 'A', model, modelSettings: { timeoutMs: 1_000 } }), 'go')).finalOutput).toBe('in time');
  });

  it('a timed-out attempt is retried as the retry policy decides (a timeout is a network error)', async () => {
    const model = new ScriptedModel([modelResponder(async () => (await later(150), [assistantMessage('late')])), [assistantMessage('second try')]]);
    const agent = new Agent({ name: 'A', model, modelSettings: { timeoutMs: 20, retry: { maxRetries: 1, policy: retryPolicies.networkError(), backoff: { initialDelayMs: 1, jitter: false } } } });
    expect((await run(agent, 'go')).finalOutput).toBe('second try');
    expect(model.calls).toHaveLength(2);
  });
});

describe('a streamed model call past modelSettings.timeoutMs', () => {
  it('a stream that stalls before its response_done: completed rejects with ModelTimeoutError (not a quiet cancellation)', async () => {
    const model = new ScriptedModel([
      modelStream(async function* (call: RecordedModelCall) {
        yield { type: 'output_text_delta', delta: 'he' };
        await aborted(call.request.signal);
        throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      } as never),
    ]);
    const result = await run(new Agent({ name: 'A', model, modelSettings: { timeoutMs: 20 } }), 'go', { stream: true });
    const read = await settled(
      (async () => {
        for await (const _event of result);
      })(),
    );
    const outcome = await settled(result.completed);
    expect((outcome as { error: unknown }).error).toBeInstanceOf(ModelTimeoutError);
    // The reader's events end with the same error.
    expect((read as { error: unknown }).error).toBe((outcome as { error: unknown }).error);
    expect(result.cancelled).toBe(false);
  });

  it('the time runs to the response_done: a stream that ends slowly after it is not timed out', async () => {
    const model = new ScriptedModel([
      modelStream(async function* () {
        yield done('answered');
        await later(80);
      } as never),
    ]);
    const result = await run(new Agent({ name: 'A', model, modelSettings: { timeoutMs: 30 } }), 'go', { stream: true });
    for await (const _event of result);
    await result.completed;
    expect(result.finalOutput).toBe('answered');
  });
});

describe('modelSettings.timeoutMs that is not a timeout', () => {
  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '100'])('%s: a UserError naming the setting, the model not called', async (timeoutMs) => {
    const model = new ScriptedModel([[assistantMessage('never')]]);
    const outcome = await settled(run(new Agent({ name: 'A', model, modelSettings: { timeoutMs: timeoutMs as number } }), 'go'));
    const error = (outcome as { error: Error }).error;
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe('modelSettings.timeoutMs must be a positive finite number less than or equal to 2147483647 when provided.');
    expect(model.calls).toHaveLength(0);
  });
});
