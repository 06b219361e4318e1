import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelBehaviorError } from '@baton/types';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunState, run, tool } from '../src/index.js';

// A resume refused before any tool ran (a decision made on a call that no longer matches what the
// model asked) leaves the state as it was: still paused on the same calls, and resumable.

function pausedRun() {
  const executed: unknown[] = [];
  const guarded = tool({
    name: 'guarded',
    description: 'needs approval',
    parameters: z.object({ value: z.string() }),
    needsApproval: true,
    execute: (input) => (executed.push(input), 'ran'),
  });
  const model = new ScriptedModel([[functionCall('guarded', { value: 'original' }, { callId: 'c1' })], [assistantMessage('done')]]);
  const agent = new Agent({ name: 'A', model, tools: [guarded] });
  return { agent, executed };
}

describe('a resume refused before any tool ran leaves the state paused', () => {
  it.each([false, true])('an approval given for changed arguments (state read back: %s)', async (roundTrip) => {
    const { agent, executed } = pausedRun();
    const paused = await run(agent, 'go');
    const state = roundTrip ? await RunState.fromString(agent, paused.state.toString()) : paused.state;
    const [approval] = state.getInterruptions();
    (approval!.rawItem as { arguments: string }).arguments = '{"value":"changed"}';
    state.approve(approval!);

    await expect(run(agent, state)).rejects.toBeInstanceOf(ModelBehaviorError);
    expect(executed).toEqual([]);
    expect(state.getInterruptions().map((item) => [item.callId, (item.rawItem as { arguments: string }).arguments])).toEqual([['c1', '{"value":"original"}']]);

    // Decided again on the call as it is, the same state resumes.
    state.approve(state.getInterruptions()[0]!);
    const resumed = await run(agent, state);
    expect(executed).toEqual([{ value: 'original' }]);
    expect(resumed.finalOutput).toBe('done');
  });
});
