import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, functionCall } from '@baton/testing';
import { OutputGuardrailTripwireTriggered } from '@baton/types';
import { Agent, MemorySession, RunState, run, tool, toolNamespace } from '../src/index.js';

// Two namespaced tools that need approval, approved one at a time with a serialization in between:
// the state keeps the calls' namespace, so the second approval runs the right tool, and its output
// is the final output (stop_on_first_tool) checked by the output guardrail.
function approvalAgent(trip: boolean) {
  const first = vi.fn(async () => 'first output');
  const second = vi.fn(async () => 'second output');
  const tools = toolNamespace({
    name: 'crm',
    description: 'CRM tools',
    tools: [
      tool({ name: 'first_tool', description: '', parameters: z.object({}), needsApproval: true, execute: first }),
      tool({ name: 'second_tool', description: '', parameters: z.object({}), needsApproval: true, execute: second }),
    ],
  });
  const model = new ScriptedModel([[functionCall('first_tool', {}, { callId: 'c1', namespace: 'crm' }), functionCall('second_tool', {}, { callId: 'c2', namespace: 'crm' })]]);
  const agent = new Agent({
    name: 'Approver',
    model,
    tools,
    toolUseBehavior: 'stop_on_first_tool',
    outputGuardrails: [{ name: 'check', execute: async () => ({ outputInfo: undefined, tripwireTriggered: trip }) }],
  });
  return { agent, model, first, second };
}

describe('a serialized partial approval of namespaced tools', () => {
  it.each([false, true])('resumes the second namespaced call after a round trip (guardrail trips: %s)', async (trip) => {
    const { agent, model, first, second } = approvalAgent(trip);
    const session = new MemorySession();
    const paused = await run(agent, 'use both', { session });
    expect(paused.interruptions.map((item) => item.rawItem)).toEqual([
      expect.objectContaining({ name: 'first_tool', namespace: 'crm' }),
      expect.objectContaining({ name: 'second_tool', namespace: 'crm' }),
    ]);
    paused.state.approve(paused.interruptions[0]!);
    const partial = await run(agent, paused.state, { session });
    expect(partial.interruptions.map((item) => (item.rawItem as { callId?: string }).callId)).toEqual(['c2']);
    const sessionBefore = await session.getItems();

    const restored = await RunState.fromString(agent, partial.state.toString());
    restored.approve(restored.getInterruptions()[0]!);
    const resumed = run(agent, restored);
    if (trip) {
      const error = await resumed.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const written = (error as OutputGuardrailTripwireTriggered).state!.toString();
      expect(written).not.toContain('first output');
      expect(written).not.toContain('second output');
    } else {
      expect((await resumed).finalOutput).toBe('second output');
    }
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    expect(model.calls).toHaveLength(1);
    // The resumed run had no session: the session is as the partial run left it.
    expect(await session.getItems()).toEqual(sessionBefore);
  });
});
