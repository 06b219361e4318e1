import { describe, expect, it } from 'vitest';
import { Agent, RunContext, RunState, UserError, run } from '@baton/core';
import { ScriptedModel, functionCall } from '@baton/testing';
import { loadRunState } from '../src/index.js';
import { Executions, approvalTool, echoOutputs, nestedScenario, toolOutputsIn } from './support/scenarios.js';

async function pausedWithDecisions() {
  const executions = new Executions();
  const model = new ScriptedModel([[functionCall('pay', { target: 'a' }, { callId: 'a' }), functionCall('pay', { target: 'b' }, { callId: 'b' })]]);
  const agent = new Agent({ name: 'Banker', model, tools: [approvalTool('pay', executions)] });
  const paused = await run(agent, 'pay', { context: { user: 'serialized-user' } });
  paused.state.approve(paused.interruptions[0]!, { decidedBy: 'serialized' }); // a: approved in the string
  return paused.state.toString();
}

function resumer() {
  const executions = new Executions();
  const model = new ScriptedModel([echoOutputs('Done')]);
  const agent = new Agent({ name: 'Banker', model, tools: [approvalTool('pay', executions)] });
  return { agent, model, executions };
}

describe('fromStringWithContext', () => {
  it("'merge' (the default) keeps the given context and adds the serialized approvals it has no decision for", async () => {
    const text = await pausedWithDecisions();
    const context = new RunContext({ user: 'live-user' });
    context.rejectTool({ toolName: 'pay', callId: 'b' }, { message: 'b rejected by the live context' });
    context.rejectTool({ toolName: 'pay', callId: 'a' }, { message: 'ignored?' });
    const { agent, model, executions } = resumer();
    const state = await RunState.fromStringWithContext(agent, text, context);
    expect(state.context).toBe(context);
    expect(state.context.context).toEqual({ user: 'live-user' }); // the serialized app context is not used
    expect(state.usage.requests).toBe(0); // nor its usage: the given context owns its accounting
    // The given context's own decision for `a` wins over the serialized one.
    expect(context.isToolApproved({ toolName: 'pay', callId: 'a' })).toBe(false);
    await run(agent, state);
    expect(executions.calls).toEqual([]);
    expect(toolOutputsIn(model.calls[0]!.request)).toEqual({ a: 'ignored?', b: 'b rejected by the live context' });
  });

  it("'merge' fills in serialized decisions the given context does not have", async () => {
    const text = await pausedWithDecisions();
    const context = new RunContext({ user: 'live-user' });
    const { agent, executions } = resumer();
    const state = await RunState.fromStringWithContext(agent, text, context, { contextStrategy: 'merge' });
    expect(context.isToolApproved({ toolName: 'pay', callId: 'a' })).toBe(true);
    expect(context.getApprovalDecision({ toolName: 'pay', callId: 'a' })?.decidedBy).toBe('serialized');
    state.approve(state.getInterruptions()[1]!);
    await run(agent, state);
    expect(executions.calls).toEqual(['pay:a', 'pay:b']);
  });

  it("'replace' uses the given context as it is: serialized approvals are not restored", async () => {
    const text = await pausedWithDecisions();
    const context = new RunContext({ user: 'live-user' });
    const { agent, executions, model } = resumer();
    const state = await RunState.fromStringWithContext(agent, text, context, { contextStrategy: 'replace' });
    expect(state.context).toBe(context);
    expect(context.isToolApproved({ toolName: 'pay', callId: 'a' })).toBeUndefined();
    const again = await run(agent, state);
    expect(again.interruptions.map((i) => i.callId)).toEqual(['a', 'b']);
    expect(executions.calls).toEqual([]);
    expect(model.calls).toHaveLength(0);
  });

  it('applies to paused nested agent-tool runs too', async () => {
    const scenario = nestedScenario(2);
    const paused = await run(scenario.root, 'pay');
    paused.state.approve(paused.interruptions[0]!);
    const text = paused.state.toString();

    const replaced = await RunState.fromStringWithContext(scenario.root, text, new RunContext({}), { contextStrategy: 'replace' });
    const stillPaused = await run(scenario.root, replaced);
    expect(stillPaused.interruptions.map((i) => i.callId)).toEqual(['pay_1']); // the nested call asks again
    expect(scenario.executions.calls).toEqual([]);

    const merged = await loadRunState(scenario.root, text, { context: new RunContext({}) });
    const done = await run(scenario.root, merged);
    expect(done.interruptions).toEqual([]);
    expect(scenario.executions.calls).toEqual(['pay:payee_1']);
  });

  it('rejects a context that is not a RunContext and an unknown strategy', async () => {
    const text = await pausedWithDecisions();
    const { agent } = resumer();
    await expect(RunState.fromStringWithContext(agent, text, { user: 'x' } as never)).rejects.toThrow(UserError);
    await expect(RunState.fromStringWithContext(agent, text, new RunContext(), { contextStrategy: 'preferSerialized' as never })).rejects.toThrow(
      /contextStrategy` must be 'merge' or 'replace'/,
    );
  });
});
