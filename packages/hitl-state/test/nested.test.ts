import { describe, expect, it } from 'vitest';
import { RunState, run } from '@baton/core';
import { approvalRecords, checkResumable, inspectRunState } from '../src/index.js';
import { nestedScenario, toolOutputsIn } from './support/scenarios.js';

/**
 * Each cycle runs in a "new process": a fresh agent graph, the string from the previous cycle,
 * and models that continue their scripts (the graph's models are shared across cycles to keep
 * one script per level, as a real model would continue the conversation).
 */
describe.each([1, 3])('agent-tool approvals %i level(s) below the root', (below) => {
  const depth = below + 1;

  it.each([
    ['approved', true],
    ['rejected', false],
  ])('%s across repeated serialize / approve / resume cycles', async (_label, approve) => {
    const scenario = nestedScenario(depth, { payments: 2 });
    let result = await run(scenario.root, 'pay two people');
    const seen: string[] = [];
    for (let cycle = 1; cycle <= 2; cycle++) {
      expect(result.interruptions.map((i) => [i.toolName, i.callId, i.agent.name])).toEqual([['pay', `pay_${cycle}`, `Level ${depth}`]]);
      const text = result.state.toString();
      const summary = inspectRunState(text);
      expect(summary).toMatchObject({ status: 'interrupted', pendingApprovals: [{ toolName: 'pay', callId: `pay_${cycle}`, agent: { name: `Level ${depth}` } }] });
      const path = Array.from({ length: below }, (_, i) => `ask_level_${i + 2}:ask_${i + 2}`);
      expect(summary.supported && summary.pendingApprovals[0]!.nestedIn).toEqual(path);
      expect(summary.supported && summary.nestedRuns.map((n) => n.key)).toEqual(path);
      expect((await checkResumable(scenario.root, text)).issues).toEqual([]);

      const state = await RunState.fromString(scenario.root, text);
      expect(state.hasPendingAgentToolRun('ask_level_2', 'ask_2')).toBe(true);
      const [item] = state.getInterruptions();
      expect(item!.agent.name).toBe(`Level ${depth}`);
      if (approve) state.approve(item!, { decidedBy: 'auditor' });
      else state.reject(item!, { message: `No payment ${cycle}.` });
      seen.push(...approvalRecords(state).filter((r) => r.pending).map((r) => `${r.callId}:${r.status}`));
      // The decision is stored, and the run resumed from the stored string.
      result = await run(scenario.root, await RunState.fromString(scenario.root, state.toString()));
    }
    expect(result.interruptions).toEqual([]);
    expect(seen).toEqual(approve ? ['pay_1:approved', 'pay_2:approved'] : ['pay_1:rejected', 'pay_2:rejected']);
    expect(scenario.executions.calls).toEqual(approve ? ['pay:payee_1', 'pay:payee_2'] : []);

    // The deepest model saw each output once; every level above got its child's answer.
    const deepest = scenario.models[depth - 1]!;
    const last = toolOutputsIn(deepest.calls.at(-1)!.request);
    expect(last).toEqual(
      approve ? { pay_1: 'pay done for payee_1', pay_2: 'pay done for payee_2' } : { pay_1: 'No payment 1.', pay_2: 'No payment 2.' },
    );
    // Every model: one call per step, none repeated for an interrupted response.
    expect(deepest.calls).toHaveLength(3);
    for (const model of scenario.models.slice(0, -1)) expect(model.calls).toHaveLength(2);
    expect(result.finalOutput).toContain('Level 1');
    expect(result.state.hasPendingAgentToolRun('ask_level_2', 'ask_2')).toBe(false);
  });
});

describe('nested runs after a round trip', () => {
  it('share the outer context, so an approval on the outer state reaches the nested run', async () => {
    const scenario = nestedScenario(2);
    const paused = await run(scenario.root, 'pay', { context: { user: 'ann' } });
    const state = await RunState.fromString(scenario.root, paused.state.toString());
    // The nested run is itself a serialized state, of the agent behind the tool.
    expect(JSON.parse(state.getPendingAgentToolRun('ask_level_2', 'ask_2')!).currentAgent).toEqual({ name: 'Level 2' });
    state.approve(state.getInterruptions()[0]!);
    const done = await run(scenario.root, state);
    expect(done.finalOutput).toContain('pay done for payee_1');
    expect(done.state.context.context).toEqual({ user: 'ann' });
  });
});
