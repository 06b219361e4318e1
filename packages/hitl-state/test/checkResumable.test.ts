import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Handoff, hostedMcpTool, run, tool } from '@baton/core';
import { ScriptedModel, functionCall } from '@baton/testing';
import { RunStateError } from '@baton/types';
import { checkResumable } from '../src/index.js';
import { Executions, approvalTool, nestedScenario, weatherScenario, weatherTool } from './support/scenarios.js';

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
    expect(report).toEqual({ ok: true, schemaVersion: '3', issues: [] });
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

/** A stored state changed the way another writer (or an older release) could have written it. */
function edit(text: string, change: (json: any) => void): string {
  const json = JSON.parse(text);
  change(json);
  return JSON.stringify(json);
}

describe('checkResumable: what the report names, and where', () => {
  it('names the rename when a renamed agent is missing too', async () => {
    const report = await checkResumable(weatherGraph(), await weatherPaused(), { renames: { 'Data agent': 'Weather agent' } });
    expect(report.issues[0]).toMatchObject({ kind: 'unresolved_agent', path: '$.currentAgent', agent: { name: 'Data agent' } });
    expect(report.issues[0]!.message).toBe('Agent "Data agent" (renamed to "Weather agent") is not in the agent graph of "Basic test agent".');
  });

  it('checks every agent reference of the history: the agent of each item, both sides of a handoff, output guardrail results', async () => {
    const text = edit(await weatherPaused(), (json) => {
      json.outputGuardrailResults = [{ guardrail: { type: 'output', name: 'no_rain' }, agentOutput: 'sunny', agent: { name: 'Basic test agent' }, output: { tripwireTriggered: false } }];
    });
    // The same graph, except that its root (who handed off to the data agent) is now called "Front desk".
    const data = new Agent({ name: 'Data agent', tools: [weatherTool(new Executions())] });
    const root = new Agent({ name: 'Front desk', handoffs: [data] });
    const report = await checkResumable(root, text);
    expect(report.issues.map((i) => [i.kind, i.path, i.agent])).toEqual([
      ['unresolved_agent', '$.generatedItems[0].agent', { name: 'Basic test agent' }],
      ['unresolved_agent', '$.generatedItems[1].sourceAgent', { name: 'Basic test agent' }],
      ['unresolved_agent', '$.outputGuardrailResults[0].agent', { name: 'Basic test agent' }],
    ]);
    expect(await checkResumable(root, text, { renames: { 'Basic test agent': 'Front desk' } })).toMatchObject({ ok: true, issues: [] });
  });

  it('a tool_schema_changed issue names the tool, its agent and the call', async () => {
    const changed = await checkResumable(weatherGraph({ tool: 'changed' }), await weatherPaused());
    expect(changed.issues).toHaveLength(1);
    expect(changed.issues[0]).toMatchObject({ kind: 'tool_schema_changed', path: '$.currentStep.interruptions[0]', agent: { name: 'Data agent' } });
    expect(changed.issues[0]!.message).toContain('"get_weather"');
    expect(changed.issues[0]!.message).toContain('"Data agent"');
    expect(changed.issues[0]!.message).toContain('call_sf');
  });

  it('a pending approval written without a parameter fingerprint (an older writer) is not reported as changed', async () => {
    const text = edit(await weatherPaused(), (json) => {
      for (const item of [...json.generatedItems, ...json.currentStep.interruptions]) delete item.parametersFingerprint;
    });
    expect(await checkResumable(weatherGraph(), text)).toEqual({ ok: true, schemaVersion: '3', issues: [] });
  });

  it('a pending function call whose name now belongs to a hosted tool is a missing tool', async () => {
    const hosted = hostedMcpTool({ serverLabel: 'weather', serverUrl: 'https://mcp.example.com' });
    const text = edit(await weatherPaused(), (json) => {
      for (const item of [...json.generatedItems, ...json.currentStep.interruptions]) {
        if (item.type === 'tool_approval_item') item.toolName = hosted.name;
        if (item.rawItem?.callId === 'call_sf') item.rawItem.name = hosted.name;
      }
    });
    const data = new Agent({ name: 'Data agent', tools: [hosted, approvalTool('get_weather', new Executions())] });
    const report = await checkResumable(new Agent({ name: 'Basic test agent', handoffs: [data] }), text);
    expect(report.issues.filter((i) => i.path === '$.currentStep.interruptions[0]').map((i) => [i.kind, i.toolName])).toEqual([['missing_tool', hosted.name]]);
  });

  it("a remote MCP server's approval request names the server's tool, not one of the agent's: no missing_tool", async () => {
    const text = edit(await weatherPaused(), (json) => {
      const request = {
        type: 'tool_approval_item',
        rawItem: { type: 'hosted_tool_call', name: 'delete_repo', id: 'mcpr_1', status: 'in_progress', arguments: '{}', providerData: { type: 'mcp_approval_request', id: 'mcpr_1', server_label: 'github', name: 'delete_repo', arguments: '{}' } },
        toolName: 'delete_repo',
      };
      json.currentStep.interruptions.push(request);
    });
    const report = await checkResumable(weatherGraph(), text);
    expect(report.issues.filter((i) => i.kind === 'missing_tool')).toEqual([]);
  });

  it('a call of the interrupted response that has no output yet and whose tool is gone is reported at its place in the response', async () => {
    const executions = new Executions();
    const model = new ScriptedModel([[functionCall('pay', { target: 'a' }, { callId: 'a' })]]);
    const paused = await run(new Agent({ name: 'Clerk', model, tools: [approvalTool('pay', executions)] }), 'go');
    // The interrupted response also asked for `lookup` (no approval needed), which runs on resume.
    const text = edit(paused.state.toString(), (json) => {
      const call = { type: 'function_call', name: 'lookup', callId: 'b', id: 'b', status: 'completed', arguments: '{"target":"b"}' };
      json.modelResponses[0].output.push({ type: 'reasoning', id: 'rs_1', content: [] }, call);
      json.generatedItems.push({ type: 'tool_call_item', rawItem: call });
    });
    expect(JSON.parse(text).modelResponses).toHaveLength(1);
    const without = new Agent({ name: 'Clerk', tools: [approvalTool('pay', executions), approvalTool('audit', executions)] });
    const report = await checkResumable(without, text);
    expect(report.issues).toEqual([
      {
        kind: 'missing_tool',
        path: '$.modelResponses[0].output[2]',
        agent: { name: 'Clerk' },
        toolName: 'lookup',
        callId: 'b',
        message: 'Agent "Clerk" has no tool "lookup" for call b, which runs when the state is resumed.',
      },
    ]);
    // With the tool (among others) the state is resumable.
    const withTool = new Agent({ name: 'Clerk', tools: [approvalTool('pay', executions), approvalTool('lookup', executions)] });
    expect(await checkResumable(withTool, text)).toMatchObject({ ok: true, issues: [] });
  });

  it('calls of the interrupted response that were answered, or that are handoffs, run no tool: not reported', async () => {
    const executions = new Executions();
    const model = new ScriptedModel([[functionCall('pay', { target: 'a' }, { callId: 'a' })]]);
    const paused = await run(new Agent({ name: 'Clerk', model, tools: [approvalTool('pay', executions)] }), 'go');
    const text = edit(paused.state.toString(), (json) => {
      const call = (name: string, callId: string) => ({ type: 'function_call', name, callId, id: callId, status: 'completed', arguments: '{}' });
      const answered = call('lookup', 'b');
      json.modelResponses[0].output.push(answered, call('transfer_to_Manager', 'c'), call('escalate', 'd'));
      json.generatedItems.push(
        { type: 'tool_call_item', rawItem: answered },
        { type: 'tool_call_output_item', rawItem: { type: 'function_call_result', callId: 'b', name: 'lookup', status: 'completed', output: { type: 'text', text: 'found' } } },
      );
    });
    const manager = new Agent({ name: 'Manager' });
    const supervisor = new Agent({ name: 'Supervisor' });
    const clerk = new Agent({
      name: 'Clerk',
      tools: [approvalTool('pay', executions)],
      handoffs: [manager, new Handoff(supervisor, () => supervisor).clone({ toolName: 'escalate' })],
    });
    const report = await checkResumable(clerk, text);
    expect(report.issues.filter((i) => i.kind === 'missing_tool')).toEqual([]);
  });

  it('a state that keeps no model response is checked without one', async () => {
    const text = edit(await weatherPaused(), (json) => {
      json.modelResponses = [];
    });
    const report = await checkResumable(weatherGraph(), text);
    expect(report.issues.filter((i) => i.kind === 'missing_tool')).toEqual([]);
  });

  it('without a pending interruption, calls of the last response are not run on resume: their tools are not required', async () => {
    // Resuming a state that is not interrupted starts a new turn; only an interrupted turn runs its remaining calls.
    const text = edit(await weatherPaused(), (json) => {
      delete json.currentStep;
    });
    const report = await checkResumable(weatherGraph({ tool: 'missing' }), text);
    expect(report.issues.filter((i) => i.kind === 'missing_tool')).toEqual([]);
  });

  it('a state with no current step (not started) is checked', async () => {
    const text = edit(await weatherPaused(), (json) => {
      delete json.currentStep;
    });
    const report = await checkResumable(weatherGraph(), text);
    expect(report.issues.filter((i) => i.kind !== 'invalid_state')).toEqual([]);
  });

  it('anything else that would stop RunState.fromString is an invalid_state issue with its path', async () => {
    const model = new ScriptedModel([[{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '{"city":"Oakland"}' }] } as never]]);
    const agent = new Agent({ name: 'Forecaster', model, outputType: z.object({ city: z.string() }) });
    const done = await run(agent, 'where?');
    const good = done.state.toString();
    expect(await checkResumable(agent, good)).toMatchObject({ ok: true, issues: [] });
    const bad = edit(good, (json) => {
      json.currentStep.output = 'not json';
    });
    const report = await checkResumable(agent, bad);
    expect(report.ok).toBe(false);
    expect(report.issues).toHaveLength(1);
    expect(report.issues[0]).toMatchObject({ kind: 'invalid_state', path: '$.currentStep.output' });
    expect(report.issues[0]!.message).toContain('not valid JSON');
  });

  it('a missing agent tool issue names the tool and the call of the paused nested run', async () => {
    const scenario = nestedScenario(2);
    const text = (await run(scenario.root, 'pay')).state.toString();
    const report = await checkResumable(new Agent({ name: 'Level 1', tools: [] }), text);
    const issue = report.issues.find((i) => i.kind === 'missing_agent_tool')!;
    expect(issue).toMatchObject({ path: '$.pendingAgentToolRuns["ask_level_2:ask_2"]', toolName: 'ask_level_2', callId: 'ask_2' });
    expect(issue.message).toContain('"ask_level_2"');
    expect(issue.message).toContain('ask_2');
  });

  it('a paused nested run belongs to the agent tool of its name: not to another agent tool, nor to a plain tool of that name', async () => {
    const scenario = nestedScenario(2);
    const text = (await run(scenario.root, 'pay')).state.toString();
    const level2 = new Agent({ name: 'Level 2', tools: [approvalTool('pay', new Executions())] });
    const other = new Agent({ name: 'Other' });
    // The agent tool is gone; another agent tool remains.
    const gone = new Agent({ name: 'Level 1', tools: [other.asTool({ toolName: 'ask_other' })] });
    expect((await checkResumable(gone, text)).issues.map((i) => [i.kind, i.toolName])).toContainEqual(['missing_agent_tool', 'ask_level_2']);
    // A plain tool took the name on the current agent; the agent tool of that name lives on another agent of the graph.
    const desk = new Agent({ name: 'Desk', tools: [level2.asTool({ toolName: 'ask_level_2' })] });
    const plain = tool({ name: 'ask_level_2', description: 'plain', parameters: z.object({ input: z.string() }), execute: () => 'x' });
    const shadowed = new Agent({ name: 'Level 1', tools: [plain], handoffs: [desk] });
    const report = await checkResumable(shadowed, text);
    expect(report.issues.filter((i) => i.kind === 'missing_agent_tool')).toEqual([]);
  });

  it('paused nested runs that cannot be read, or stored under keys without a call id, are reported with tool and call', async () => {
    const scenario = nestedScenario(2);
    const text = edit((await run(scenario.root, 'pay')).state.toString(), (json) => {
      json.pendingAgentToolRuns['ask_level_2:ask_2'] = '{"$schemaVersion":"9"}';
      json.pendingAgentToolRuns['ask_level_9'] = '{}';
      json.pendingAgentToolRuns[':ask_8'] = '{}';
    });
    const report = await checkResumable(scenario.root, text);
    expect(report.issues.map((i) => [i.kind, i.path, i.toolName, i.callId])).toEqual([
      ['unreadable_nested_run', '$.pendingAgentToolRuns["ask_level_2:ask_2"]', 'ask_level_2', 'ask_2'],
      ['missing_agent_tool', '$.pendingAgentToolRuns.ask_level_9', 'ask_level_9', ''],
      ['missing_agent_tool', '$.pendingAgentToolRuns[":ask_8"]', '', 'ask_8'],
    ]);
    expect(report.issues[0]!.message).toMatch(/newer/);
  });
});
