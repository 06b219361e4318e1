import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, RequestUsage, RunContext, RunState, Usage, run } from '../src/index.js';

// A run's usage keeps each model request's counts (`requestUsageEntries`); a serialized state
// keeps them too, so a resumed run reports the same per-request usage as the original.

describe('run state per-request usage', () => {
  it('round-trips the per-request entries of the run usage', async () => {
    const agent = new Agent({ name: 'Counter' });
    const state = new RunState(new RunContext(), 'hi', agent, 2);
    state.usage.add(new Usage({ requests: 1, inputTokens: 100, outputTokens: 50, totalTokens: 150 }));
    state.usage.add(new Usage({ requests: 1, inputTokens: 7, outputTokens: 3, requestUsageEntries: [{ inputTokens: 7, outputTokens: 3, totalTokens: 10, endpoint: 'responses.create', inputTokensDetails: { cached_tokens: 2 } }] }));

    const json = state.toJSON();
    expect(json.context.usage.requestUsageEntries).toEqual([
      { inputTokens: 100, outputTokens: 50, totalTokens: 150 },
      { inputTokens: 7, outputTokens: 3, totalTokens: 10, endpoint: 'responses.create', inputTokensDetails: { cached_tokens: 2 } },
    ]);

    const restored = await RunState.fromString(agent, state.toString());
    expect(restored.usage.requests).toBe(2);
    expect(restored.usage.requestUsageEntries).toHaveLength(2);
    expect(restored.usage.requestUsageEntries![0]).toBeInstanceOf(RequestUsage);
    expect(restored.usage.requestUsageEntries![1]).toMatchObject({ totalTokens: 10, endpoint: 'responses.create', inputTokensDetails: { cached_tokens: 2 } });
  });

  it('keeps the entries of each model response of a finished run', async () => {
    const usage = new Usage({ requests: 1, inputTokens: 4, outputTokens: 2, requestUsageEntries: [{ inputTokens: 4, outputTokens: 2, totalTokens: 6, endpoint: 'responses.create' }] });
    const model = new ScriptedModel([{ output: [assistantMessage('ok')], usage }]);
    const result = await run(new Agent({ name: 'One', model }), 'go');
    const restored = await RunState.fromString(new Agent({ name: 'One', model }), result.state.toString());
    expect(restored.usage.requestUsageEntries).toHaveLength(1);
    expect(restored.modelResponses[0]!.usage.requestUsageEntries).toEqual([expect.objectContaining({ totalTokens: 6, endpoint: 'responses.create' })]);
  });

  it('reads a state written without per-request entries', async () => {
    const agent = new Agent({ name: 'Old' });
    const json = new RunState(new RunContext(), 'hi', agent, 1).toJSON();
    json.context.usage = { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    const restored = await RunState.fromString(agent, JSON.stringify(json));
    expect(restored.usage.requests).toBe(1);
    expect(restored.usage.requestUsageEntries).toBeUndefined();
  });
});
