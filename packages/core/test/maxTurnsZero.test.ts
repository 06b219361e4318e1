import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, MaxTurnsExceededError, RunState, run } from '../src/index.js';

describe('maxTurns: 0', () => {
  it('fails before the first model call, and the state it leaves is read back and resumes', async () => {
    const model = new ScriptedModel([[assistantMessage('resumed')]]);
    const agent = new Agent({ name: 'Zero', model });
    const error = await run(agent, 'go', { maxTurns: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MaxTurnsExceededError);
    expect(model.calls).toHaveLength(0);
    const state = (error as MaxTurnsExceededError).state as RunState<unknown, Agent>;
    const restored = await RunState.fromString(agent, state.toString());
    const resumed = await run(agent, restored, { maxTurns: null });
    expect(resumed.finalOutput).toBe('resumed');
    expect(resumed.state.currentTurn).toBe(1);
  });
});
