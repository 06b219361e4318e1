import { describe, expect, it } from 'vitest';
import { Agent, Handoff, RunState, run, type FunctionTool } from '@baton/core';
import { ScriptedModel, functionCall } from '@baton/testing';
import { RunStateError } from '@baton/types';
import { agentIdentities, inspectRunState, loadRunState } from '../src/index.js';
import { Executions, approvalTool, echoOutputs, toolOutputsIn } from './support/scenarios.js';

/**
 * Two specialists both named "Helper" (one for billing, one for shipping), reachable by handoff,
 * plus one named "Helper" behind an agent tool. Only the shipping one is handed to.
 */
function duplicateGraph(script: ConstructorParameters<typeof ScriptedModel>[0] = [], names = { router: 'Router', helper: 'Helper' }) {
  const executions = new Executions();
  const model = new ScriptedModel(script);
  const billing = new Agent({ name: names.helper, instructions: 'billing', model, tools: [approvalTool('refund', executions)] });
  const shipping = new Agent({ name: names.helper, instructions: 'shipping', model, tools: [approvalTool('ship', executions)] });
  const expert = new Agent({ name: names.helper, instructions: 'expert', model });
  const router = new Agent({
    name: names.router,
    model,
    handoffs: [billing, handoffTo(shipping, 'to_shipping')],
    tools: [expert.asTool({ toolName: 'ask_expert' }) as FunctionTool],
  });
  return { router, billing, shipping, expert, model, executions };
}

describe('agent identities', () => {
  it('are the name when unique and Name, Name#2, ... in walk order when shared', () => {
    const { router, billing, shipping, expert } = duplicateGraph([]);
    expect(agentIdentities(router).map((a) => [a.identity, a.agent])).toEqual([
      ['Router', router],
      ['Helper', billing],
      ['Helper#2', shipping],
      ['Helper#3', expert],
    ]);
    // The same graph built again gets the same identities.
    const again = duplicateGraph([]);
    expect(agentIdentities(again.router).map((a) => a.identity)).toEqual(['Router', 'Helper', 'Helper#2', 'Helper#3']);
  });

  it('skip a suffix a real agent already has', () => {
    const literal = new Agent({ name: 'Helper#2' });
    const a = new Agent({ name: 'Helper' });
    const b = new Agent({ name: 'Helper' });
    const root = new Agent({ name: 'Root', handoffs: [a, b, literal] });
    expect(agentIdentities(root).map((x) => x.identity)).toEqual(['Root', 'Helper', 'Helper#3', 'Helper#2']);
  });

  it('let a state whose agents share a name resume on the right agent', async () => {
    // The model hands off to the second "Helper" (under its own handoff tool name).
    const executions = new Executions();
    const model = new ScriptedModel([[functionCall('to_shipping', {}, { callId: 'h1' })], [functionCall('ship', { target: 'box' }, { callId: 's1' })]]);
    const build = (m: ScriptedModel) => {
      const billing = new Agent({ name: 'Helper', model: m, tools: [approvalTool('refund', executions)] });
      const shipping = new Agent({ name: 'Helper', model: m, tools: [approvalTool('ship', executions)] });
      const router = new Agent({ name: 'Router', model: m, handoffs: [billing, handoffTo(shipping, 'to_shipping')] });
      return { router, billing, shipping };
    };
    const first = build(model);
    const paused = await run(first.router, 'ship my box');
    const text = paused.state.toString();
    expect(JSON.parse(text).currentAgent).toEqual({ name: 'Helper', identity: 'Helper#2' });
    expect(inspectRunState(text)).toMatchObject({ agents: [{ name: 'Helper', identity: 'Helper#2' }, { name: 'Router' }] });

    const other = build(new ScriptedModel([echoOutputs('Shipped')]));
    const state = await RunState.fromString(other.router, text);
    expect(state.currentAgent).toBe(other.shipping);
    expect(state.getInterruptions()[0]!.agent).toBe(other.shipping);
    state.approve(state.getInterruptions()[0]!);
    const done = await run(other.router, state);
    expect(done.finalOutput).toContain('ship done for box');
    expect(executions.calls).toEqual(['ship:box']);
  });
});

describe('rename maps', () => {
  it('resume a state written for agent X on the agent now called Y, and rewrite it with the new name', async () => {
    const executions = new Executions();
    const oldGraph = () => {
      const model = new ScriptedModel([[functionCall('pay', { target: 'x' }, { callId: 'p1' })]]);
      return new Agent({ name: 'Cashier', model, tools: [approvalTool('pay', executions)] });
    };
    const text = (await run(oldGraph(), 'pay x')).state.toString();

    const model = new ScriptedModel([echoOutputs('Paid')]);
    const renamed = new Agent({ name: 'Treasurer', model, tools: [approvalTool('pay', executions)] });
    await expect(RunState.fromString(renamed, text)).rejects.toThrow(
      'Agent Cashier not found in the agent graph of "Treasurer" (referenced at $.currentAgent). Agents in the graph: "Treasurer". Rebuild the same graph, or pass a rename map for renamed agents.',
    );
    const state = await loadRunState(renamed, text, { renames: { Cashier: 'Treasurer' } });
    expect(state.currentAgent).toBe(renamed);
    expect(JSON.parse(state.toString()).currentAgent).toEqual({ name: 'Treasurer' });
    state.approve(state.getInterruptions()[0]!);
    const done = await run(renamed, state);
    expect(toolOutputsIn(model.calls[0]!.request)).toEqual({ p1: 'pay done for x' });
    expect(done.finalOutput).toContain('Paid');
  });

  it('maps identities of agents that share a name, and reports a rename to an unknown agent', async () => {
    const executions = new Executions();
    const build = (names: [string, string]) => {
      const model = new ScriptedModel([[functionCall('to_second', {}, { callId: 'h1' })], [functionCall('pay', { target: 'y' }, { callId: 'p1' })]]);
      const first = new Agent({ name: names[0], model });
      const second = new Agent({ name: names[1], model, tools: [approvalTool('pay', executions)] });
      const root = new Agent({ name: 'Root', model, handoffs: [first, handoffTo(second, 'to_second')] });
      return { root, second };
    };
    const text = (await run(build(['Twin', 'Twin']).root, 'go')).state.toString();
    const now = build(['Twin', 'Sibling']);
    const state = await RunState.fromString(now.root, text, { agentRenames: { 'Twin#2': 'Sibling' } });
    expect(state.currentAgent).toBe(now.second);
    const error = await RunState.fromString(now.root, text, { agentRenames: { 'Twin#2': 'Nobody' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunStateError);
    expect((error as RunStateError).reason).toBe('unresolved_agent');
    expect((error as RunStateError).message).toContain('Agent identity Twin#2 (renamed to Nobody) not found');
  });
});

/** A handoff to `agent` under its own tool name (two agents named alike need two tool names). */
function handoffTo(agent: Agent, toolName: string): Handoff {
  const handoff = new Handoff(agent as never, () => agent as never);
  handoff.toolName = toolName;
  return handoff;
}
