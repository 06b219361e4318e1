import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, run, tool } from '../src/index.js';

/** The tenant the nested tool's approval check saw each time it ran, after the live context changed at the pause. */
async function tenantsSeen(contextStrategy: 'merge' | 'replace' | 'preferSerialized') {
  const seen: string[] = [];
  const wire = tool({
    name: 'wire',
    description: '',
    parameters: z.object({}),
    needsApproval: async (runContext) => (seen.push((runContext.context as { tenant: string }).tenant), true),
    execute: () => 'sent',
  });
  const inner = new Agent({ name: 'Payments', model: new ScriptedModel([[functionCall('wire', {}, { callId: 'w1' })], [assistantMessage('paid')]]), tools: [wire] });
  const model = new ScriptedModel([[functionCall('payments', { input: 'pay' }, { callId: 'p1' })], [assistantMessage('done')]]);
  const agent = new Agent({ name: 'Desk', model, tools: [inner.asTool({ toolName: 'payments', toolDescription: '', resumeState: { contextStrategy } })] });
  const context = { tenant: 'at-pause' };
  const paused = await run(agent, 'go', { context });
  context.tenant = 'changed';
  for (const item of paused.interruptions) paused.state.approve(item);
  await run(agent, paused.state);
  return seen;
}

describe('resuming a paused nested agent tool', () => {
  it('preferSerialized: the nested run keeps the context as it was serialized at the pause', async () => {
    expect(await tenantsSeen('preferSerialized')).toEqual(['at-pause', 'at-pause']);
  });

  it('merge: the nested run sees the live context', async () => {
    expect((await tenantsSeen('merge')).at(-1)).toBe('changed');
  });
});

describe('a signal in an agent tool’s runOptions', () => {
  it('stops the nested run: an already aborted one fails the call before the nested model is asked', async () => {
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    const innerModel = new ScriptedModel([[assistantMessage('never')]]);
    const inner = new Agent({ name: 'Inner', model: innerModel });
    const outerModel = new ScriptedModel([[functionCall('inner', { input: 'go' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const innerTool = inner.asTool({ toolName: 'inner', toolDescription: '', runOptions: { signal: controller.signal } });
    await run(new Agent({ name: 'Outer', model: outerModel, tools: [innerTool] }), 'go');
    expect(innerModel.calls).toHaveLength(0);
  });
});
