import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage, modelError } from '@baton/testing';
import { Agent, Runner, Usage } from '../src/index.js';

const retryOnce = { retry: { maxRetries: 1, policy: () => ({ retry: true, approveUnsafeReplay: true, delayMs: 0 }) } };

describe('the usage of a model call that was retried', () => {
  it('counts an attempt that failed before the API answered as one request of the response', async () => {
    const model = new ScriptedModel([modelError(new Error('connection reset')), [assistantMessage('ok')]]);
    const result = await new Runner().run(new Agent({ name: 'Retried', model, modelSettings: retryOnce }), 'go');
    expect(result.finalOutput).toBe('ok');
    expect(result.state.usage.requests).toBe(2);
    expect(result.rawResponses).toHaveLength(1);
    expect(result.rawResponses[0]!.usage.requests).toBe(2);
    // One entry per request: the failed attempt's is empty.
    expect(result.state.usage.requestUsageEntries?.map((entry) => entry.totalTokens)).toEqual([0, expect.any(Number)]);
  });

  it('folds a billed failed attempt into the response once, streamed too', async () => {
    const billed = Object.assign(new Error('truncated'), { usage: new Usage({ requests: 1, inputTokens: 5, outputTokens: 2, totalTokens: 7 }) });
    const model = new ScriptedModel([modelError(billed), [assistantMessage('ok')]]);
    const result = await new Runner().run(new Agent({ name: 'Streamed', model, modelSettings: retryOnce }), 'go', { stream: true });
    await result.completed;
    expect(result.finalOutput).toBe('ok');
    expect(result.state.usage.requests).toBe(2);
    expect(result.rawResponses[0]!.usage.requests).toBe(2);
    expect(result.rawResponses[0]!.usage.inputTokens).toBeGreaterThanOrEqual(5);
    expect(result.state.usage.inputTokens).toBe(result.rawResponses[0]!.usage.inputTokens);
  });

  it('counts only the billed usage when the call fails for good', async () => {
    const billed = Object.assign(new Error('incomplete'), { usage: new Usage({ requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 }) });
    const model = new ScriptedModel([modelError(new Error('connection reset')), modelError(billed)]);
    const result = await new Runner().run(new Agent({ name: 'Failed', model, modelSettings: retryOnce }), 'go', { stream: true });
    await expect(result.completed).rejects.toThrow('incomplete');
    expect(result.state.usage).toMatchObject({ requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  });
});
