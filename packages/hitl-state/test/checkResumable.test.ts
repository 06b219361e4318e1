import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, run, tool } from '@baton/core';
import { ScriptedModel, functionCall } from '@baton/testing';
import { RunStateError } from '@baton/types';
import { checkResumable } from '../src/index.js';
import { Executions, approvalTool, nestedScenario, weatherScenario } from './support/scenarios.js';

async function weatherPaused(): Promise<string> {
  const { root } = weatherScenario();
  return (await run(root, 'weather in Oakland and San Francisco?')).state.toString();
}

/** The weather graph rebuilt with changes. */
function weatherGraph(change: { dataName?: string; tool?: 'missing' | 'changed'; extraCall?: boolean } = {}) {
  const executions = new Executions();
  const model = new ScriptedModel([]);
  const weather =
    change.tool === 'changed'
      ? tool({ name: 'get_weather', description: 'd', parameters: z.object({ location: z.string(), unit: z.enum(['C', 'F']) }), execute: () => 'x' })
      : tool({ name: 'get_weather', description: 'd', parameters: z.object({ location: z.string() }), needsApproval: true, execute: () => 'x' });
  const data = new Agent({ name: change.dataName ?? 'Data agent', model, tools: change.tool === 'missing' ? [approvalTool('other', executions)] : [weather] });
  const root = new Agent({ name: 'Basic test agent', model, handoffs: [data] });
  return root;
}

describe('checkResumable', () => {
  it('is ok for the graph the state was written with', async () => {
    const report = await checkResumable(weatherGraph(), await weatherPaused());
    expect(report).toEqual({ ok: true, schemaVersion: '1', issues: [] });
  });

  it('reports every agent reference that does not resolve, and passes with a rename map', async () => {
    const text = await weatherPaused();
    const report = await checkResumable(weatherGraph({ dataName: 'Weather agent' }), text);
    expect(report.ok).toBe(false);
    expect(report.issues.every((i) => i.kind === 'unresolved_agent')).toBe(true);
    expect(report.issues.map((i) => i.path)).toEqual(['$.currentAgent', '$.generatedItems[1].targetAgent']);
    expect(report.issues[0]!.message).toBe('Agent "Data agent" is not in the agent graph of "Basic test agent".');
    expect(await checkResumable(weatherGraph({ dataName: 'Weather agent' }), text, { renames: { 'Data agent': 'Weather agent' } })).toMatchObject({ ok: true, issues: [] });
  });

  it('reports a pending tool that no longer exists, or whose parameters changed', async () => {
    const text = await weatherPaused();
    const missing = await checkResumable(weatherGraph({ tool: 'missing' }), text);
    expect(missing.issues).toEqual([
      {
        kind: 'missing_tool',
        path: '$.currentStep.interruptions[0]',
        agent: { name: 'Data agent' },
        toolName: 'get_weather',
        callId: 'call_sf',
        message: 'Agent "Data agent" has no tool "get_weather" for the pending call call_sf.',
      },
    ]);
    const changed = await checkResumable(weatherGraph({ tool: 'changed' }), text);
    expect(changed.issues.map((i) => [i.kind, i.toolName, i.callId])).toEqual([['tool_schema_changed', 'get_weather', 'call_sf']]);
  });

  it('reports an approved call of the interrupted turn whose tool is gone', async () => {
    const executions = new Executions();
    const model = new ScriptedModel([[functionCall('pay', { target: 'a' }, { callId: 'a' }), functionCall('lookup', { target: 'b' }, { callId: 'b' })]]);
    const lookup = approvalTool('lookup', executions);
    const agent = new Agent({ name: 'Clerk', model, tools: [approvalTool('pay', executions), lookup] });
    const paused = await run(agent, 'go');
    const text = paused.state.toString();
    const without = new Agent({ name: 'Clerk', tools: [approvalTool('pay', executions)] });
    const report = await checkResumable(without, text);
    expect(report.issues.map((i) => [i.kind, i.toolName, i.path])).toEqual([['missing_tool', 'lookup', '$.currentStep.interruptions[1]']]);
  });

  it('checks paused nested runs: their agent tool, and the references inside them', async () => {
    const scenario = nestedScenario(3);
    const text = (await run(scenario.root, 'pay')).state.toString();
    expect((await checkResumable(scenario.root, text)).ok).toBe(true);

    const level3 = new Agent({ name: 'Level 3 renamed', tools: [approvalTool('pay', new Executions())] });
    const level2 = new Agent({ name: 'Level 2', tools: [level3.asTool({ toolName: 'ask_level_3' })] });
    const root = new Agent({ name: 'Level 1', tools: [level2.asTool({ toolName: 'ask_level_2' })] });
    const report = await checkResumable(root, text);
    expect(report.issues.map((i) => [i.kind, i.path])).toEqual([
      ['unresolved_agent', '$.currentStep.interruptions[0].agent'],
      ['unresolved_agent', '$.pendingAgentToolRuns["ask_level_2:ask_2"].currentStep.interruptions[0].agent'],
      ['unresolved_agent', '$.pendingAgentToolRuns["ask_level_2:ask_2"].pendingAgentToolRuns["ask_level_3:ask_3"].currentAgent'],
    ]);
    const noTool = new Agent({ name: 'Level 1', tools: [] });
    expect((await checkResumable(noTool, text)).issues.map((i) => i.kind)).toContain('missing_agent_tool');
  });

  it('throws RunStateError for input that is not a run state', async () => {
    await expect(checkResumable(weatherGraph(), '{"$schemaVersion":"1"')).rejects.toThrow(RunStateError);
    await expect(checkResumable(weatherGraph(), '{"$schemaVersion":"9"}')).rejects.toThrow(/schema version 9 is newer/);
  });
});
