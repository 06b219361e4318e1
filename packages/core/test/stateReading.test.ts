import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunContext, RunState, RunStateError, run, tool } from '../src/index.js';

// Reading a stored run state (`RunState.fromString` / `fromStringWithContext`) restores the same run:
// items of every kind with the agent that produced them, the pending approvals (the same objects
// as the approval items of the history, as in a live state and in the reference), the final output,
// the context with its approvals and approval requests, and the paused nested agent-tool runs. What
// it cannot restore is a `RunStateError` with a reason and the JSON path of the problem
// (packages/hitl-state/README.md, "Bad input"); reading never throws anything else.

type Json = Record<string, any>;

const noModel = () => new ScriptedModel([]);

function payTool() {
  return tool({ name: 'pay', description: 'pay', parameters: z.object({ target: z.string() }), needsApproval: true, execute: ({ target }) => `paid ${target}` });
}

/** Root hands off to Helper; both have `pay`. */
function graph() {
  const helper = new Agent({ name: 'Helper', model: noModel(), tools: [payTool()] });
  const root = new Agent({ name: 'Root', model: noModel(), tools: [payTool()], handoffs: [helper] });
  return { root, helper };
}

/** A schema-1 state of `Root`, as Baton writes it, with `fields` replacing the defaults. */
function stateJson(fields: Json = {}): Json {
  return {
    $schemaVersion: '1',
    currentTurn: 1,
    maxTurns: 10,
    currentAgent: { name: 'Root' },
    originalInput: 'hi',
    generatedItems: [],
    modelResponses: [],
    context: { context: {}, usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, approvals: {} },
    inputGuardrailResults: [],
    outputGuardrailResults: [],
    toolInputGuardrailResults: [],
    toolOutputGuardrailResults: [],
    pendingAgentToolRuns: {},
    ...fields,
  };
}

async function readError(root: Agent<any, any>, json: Json, options: { agentRenames?: Record<string, string> } = {}): Promise<RunStateError> {
  try {
    await RunState.fromString(root, JSON.stringify(json), options);
  } catch (error) {
    expect(error).toBeInstanceOf(RunStateError);
    return error as RunStateError;
  }
  throw new Error('expected reading to fail');
}

const message = (text: string) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });
const call = (name: string, callId: string) => ({ type: 'function_call', name, callId, status: 'completed', arguments: '{"target":"a"}' });
const result = (name: string, callId: string, output: unknown) => ({ type: 'function_call_result', name, callId, status: 'completed', output });
const approval = (callId: string, agent?: Json) => ({ type: 'tool_approval_item', rawItem: call('pay', callId), toolName: 'pay', ...(agent ? { agent } : {}) });

/** One serialized item of every kind, each with an `agent` field (or the handoff's two agents). */
const ITEMS: Array<{ kind: string; item: (agent: Json) => Json; agentFields: string[] }> = [
  { kind: 'message_output_item', item: (agent) => ({ type: 'message_output_item', rawItem: message('x'), agent }), agentFields: ['agent'] },
  { kind: 'tool_call_item', item: (agent) => ({ type: 'tool_call_item', rawItem: call('pay', 'c0'), agent }), agentFields: ['agent'] },
  { kind: 'tool_call_output_item', item: (agent) => ({ type: 'tool_call_output_item', rawItem: result('pay', 'c0', 'paid'), agent }), agentFields: ['agent'] },
  { kind: 'reasoning_item', item: (agent) => ({ type: 'reasoning_item', rawItem: { type: 'reasoning', content: [{ type: 'input_text', text: 'think' }] }, agent }), agentFields: ['agent'] },
  { kind: 'tool_search_call_item', item: (agent) => ({ type: 'tool_search_call_item', rawItem: { type: 'tool_search_call', arguments: { query: 'q' } }, agent }), agentFields: ['agent'] },
  { kind: 'tool_search_output_item', item: (agent) => ({ type: 'tool_search_output_item', rawItem: { type: 'tool_search_output', tools: [] }, agent }), agentFields: ['agent'] },
  { kind: 'compaction_item', item: (agent) => ({ type: 'compaction_item', rawItem: { type: 'compaction', encrypted_content: 'enc' }, agent }), agentFields: ['agent'] },
  { kind: 'input_item', item: (agent) => ({ type: 'input_item', rawItem: { role: 'user', content: 'more' }, inputId: 'in_1', agent }), agentFields: ['agent'] },
  { kind: 'handoff_call_item', item: (agent) => ({ type: 'handoff_call_item', rawItem: call('transfer_to_Helper', 'h0'), agent }), agentFields: ['agent'] },
  {
    kind: 'handoff_output_item',
    item: (agent) => ({ type: 'handoff_output_item', rawItem: result('transfer_to_Helper', 'h0', '{"assistant":"Helper"}'), sourceAgent: agent, targetAgent: agent }),
    agentFields: ['sourceAgent', 'targetAgent'],
  },
  { kind: 'tool_approval_item', item: (agent) => ({ ...approval('c9'), agent }), agentFields: ['agent'] },
];

describe('reading items', () => {
  it.each(ITEMS)('$kind is restored as that kind, with the agent it names', async ({ kind, item, agentFields }) => {
    const { root, helper } = graph();
    const state = await RunState.fromString(root, JSON.stringify(stateJson({ generatedItems: [item({ name: 'Helper' })] })));
    const [restored] = state.generatedItems as Array<Json>;
    expect(restored!.type).toBe(kind);
    expect(restored!.rawItem).toEqual(item({ name: 'Helper' }).rawItem);
    for (const field of agentFields) expect(restored![field]).toBe(helper);
    if (kind === 'input_item') expect(restored!.inputId).toBe('in_1');
  });

  it.each(ITEMS)('$kind written without an agent belongs to the current agent', async ({ item, agentFields }) => {
    const { root, helper } = graph();
    if (agentFields.length > 1) return; // the handoff output always names both agents
    const { agent: _agent, ...withoutAgent } = item({ name: 'Root' });
    const state = await RunState.fromString(root, JSON.stringify(stateJson({ currentAgent: { name: 'Helper' }, generatedItems: [withoutAgent] })));
    expect((state.generatedItems[0] as Json).agent).toBe(helper);
  });

  it.each(ITEMS.flatMap(({ kind, item, agentFields }) => agentFields.map((field) => ({ kind, item, field }))))(
    '$kind naming an agent the graph lacks in `$field` is refused at its path',
    async ({ item, field }) => {
      const { root } = graph();
      const written = item({ name: 'Helper' });
      written[field] = { name: 'Ghost' };
      const error = await readError(root, stateJson({ generatedItems: [{ type: 'message_output_item', rawItem: message('first') }, written] }));
      expect(error.reason).toBe('unresolved_agent');
      expect(error.path).toEqual(['generatedItems', 1, field]);
      expect(error.message).toContain('Ghost');
      expect(error.message).toContain(`$.generatedItems[1].${field}`);
    },
  );

  // A tool output written without `output` is the text in `rawItem.output` (the writer leaves it out
  // then); otherwise the raw output.
  const outputs: Array<[string, Json, unknown]> = [
    ['a string', result('pay', 'c0', 'paid a'), 'paid a'],
    ['a text output', result('pay', 'c0', { type: 'text', text: 'paid b' }), 'paid b'],
    ['an image output', result('pay', 'c0', { type: 'image', image: 'data:image/png;base64,AAAA' }), { type: 'image', image: 'data:image/png;base64,AAAA' }],
    ['a list of outputs', result('pay', 'c0', [{ type: 'text', text: 'one' }]), [{ type: 'text', text: 'one' }]],
    ['null', result('pay', 'c0', null), null],
    ['a number', result('pay', 'c0', 42), 42],
    ['an apply-patch output (no output field)', { type: 'apply_patch_call_output', callId: 'c0', status: 'completed' }, undefined],
  ];

  it.each(outputs)('a tool output item without `output` over %s', async (_label, rawItem, expected) => {
    const { root } = graph();
    const state = await RunState.fromString(root, JSON.stringify(stateJson({ generatedItems: [{ type: 'tool_call_output_item', rawItem }] })));
    expect((state.generatedItems[0] as Json).output).toEqual(expected);
  });

  it('a tool output item with `output` keeps it', async () => {
    const { root } = graph();
    const state = await RunState.fromString(root, JSON.stringify(stateJson({ generatedItems: [{ type: 'tool_call_output_item', rawItem: result('pay', 'c0', '{"a":1}'), output: { a: 1 } }] })));
    expect((state.generatedItems[0] as Json).output).toEqual({ a: 1 });
  });
});

describe('reading the current agent', () => {
  it('an unknown current agent is refused at $.currentAgent, naming it, the root and the agents of the graph', async () => {
    const { root } = graph();
    const error = await readError(root, stateJson({ currentAgent: { name: 'Ghost' } }));
    expect(error.reason).toBe('unresolved_agent');
    expect(error.path).toEqual(['currentAgent']);
    expect(error.message).toBe(
      'Agent Ghost not found in the agent graph of "Root" (referenced at $.currentAgent). Agents in the graph: "Root", "Helper". Rebuild the same graph, or pass a rename map for renamed agents.',
    );
  });

  it('a reference whose identity is its name is named by its name', async () => {
    const { root } = graph();
    const error = await readError(root, stateJson({ currentAgent: { name: 'Ghost', identity: 'Ghost' } }));
    expect(error.message).toMatch(/^Agent Ghost not found/);
  });

  it('an unknown identity is named by its identity', async () => {
    const { root } = graph();
    const error = await readError(root, stateJson({ currentAgent: { name: 'Helper', identity: 'Helper#2' } }));
    expect(error.reason).toBe('unresolved_agent');
    expect(error.message).toContain('Helper#2');
  });

  it('a rename to an agent the graph lacks names the new name', async () => {
    const { root } = graph();
    const error = await readError(root, stateJson({ currentAgent: { name: 'Old' } }), { agentRenames: { Old: 'Newer' } });
    expect(error.reason).toBe('unresolved_agent');
    expect(error.message).toMatch(/^Agent Old \(renamed to Newer\) not found in the agent graph of "Root"/);
  });

  it('a rename resolves the old name', async () => {
    const { root, helper } = graph();
    const state = await RunState.fromString(root, JSON.stringify(stateJson({ currentAgent: { name: 'Assistant' } })), { agentRenames: { Assistant: 'Helper' } });
    expect(state.currentAgent).toBe(helper);
  });
});

describe('reading approvals', () => {
  it('pending approvals are the approval items of the history, as in the live state', async () => {
    const agent = new Agent({ name: 'Banker', model: new ScriptedModel([[functionCall('pay', { target: 'a' }, { callId: 'a' }), functionCall('pay', { target: 'b' }, { callId: 'b' })]]), tools: [payTool()] });
    const live = (await run(agent, 'pay')).state;
    const sameInLive = live._currentStep!.type === 'next_step_interruption' ? live._currentStep!.data.interruptions.map((i) => live._generatedItems.indexOf(i)) : [];
    expect(sameInLive.every((index) => index >= 0)).toBe(true);

    const read = await RunState.fromString(new Agent({ name: 'Banker', model: noModel(), tools: [payTool()] }), live.toString());
    const step = read._currentStep!;
    expect(step.type).toBe('next_step_interruption');
    const interruptions = step.type === 'next_step_interruption' ? step.data.interruptions : [];
    expect(interruptions.map((i) => read._generatedItems.indexOf(i))).toEqual(sameInLive);
    expect(read.getInterruptions().map((i) => i.callId)).toEqual(['a', 'b']);
  });

  it('an interruption is the approval item of its call, not another item of the same call', async () => {
    const { root } = graph();
    const json = stateJson({
      generatedItems: [approval('c1'), { type: 'tool_call_item', rawItem: call('pay', 'c1') }],
      currentStep: { type: 'next_step_interruption', interruptions: [approval('c1')] },
    });
    const state = await RunState.fromString(root, JSON.stringify(json));
    const step = state._currentStep!;
    const [interruption] = step.type === 'next_step_interruption' ? step.data.interruptions : [];
    expect(interruption!.type).toBe('tool_approval_item');
    expect(interruption).toBe(state._generatedItems[0]);
  });

  it('an interruption missing from the history is restored from the step, with its agent', async () => {
    const { root, helper } = graph();
    const json = stateJson({ currentStep: { type: 'next_step_interruption', interruptions: [approval('c2', { name: 'Helper' }), approval('c3')] } });
    const state = await RunState.fromString(root, JSON.stringify(json));
    const interruptions = state.getInterruptions();
    expect(interruptions.map((i) => [i.type, i.toolName, i.callId])).toEqual([
      ['tool_approval_item', 'pay', 'c2'],
      ['tool_approval_item', 'pay', 'c3'],
    ]);
    expect(interruptions[0]!.agent).toBe(helper);
    expect(interruptions[1]!.agent).toBe(root);
  });

  it('an interruption naming an agent the graph lacks is refused at its path', async () => {
    const { root } = graph();
    const json = stateJson({ currentStep: { type: 'next_step_interruption', interruptions: [approval('c2'), approval('c3', { name: 'Ghost' })] } });
    const error = await readError(root, json);
    expect(error.reason).toBe('unresolved_agent');
    expect(error.path).toEqual(['currentStep', 'interruptions', 1, 'agent']);
  });
});

describe('reading the current step', () => {
  it('a text final output is the text', async () => {
    const agent = new Agent({ name: 'Writer', model: new ScriptedModel([[assistantMessage('done')]]) });
    const live = (await run(agent, 'go')).state;
    const read = await RunState.fromString(new Agent({ name: 'Writer', model: noModel() }), live.toString());
    expect(read._currentStep).toEqual({ type: 'next_step_final_output', output: 'done' });
    expect(read._currentStep).toEqual(live._currentStep);
  });

  it('a structured final output is the value, as in the live state', async () => {
    const outputType = z.object({ city: z.string(), sunny: z.boolean() });
    const agent = new Agent({ name: 'Forecaster', model: new ScriptedModel([[assistantMessage('{"city":"Oslo","sunny":false}')]]), outputType });
    const live = (await run(agent, 'go')).state;
    const read = await RunState.fromString(new Agent({ name: 'Forecaster', model: noModel(), outputType }), live.toString());
    expect(read._currentStep).toEqual({ type: 'next_step_final_output', output: { city: 'Oslo', sunny: false } });
    expect(read._currentStep).toEqual(live._currentStep);
  });

  it('a structured final output that is not JSON is refused at $.currentStep.output', async () => {
    const agent = new Agent({ name: 'Forecaster', model: noModel(), outputType: z.object({ city: z.string() }) });
    const error = await readError(agent, stateJson({ currentAgent: { name: 'Forecaster' }, currentStep: { type: 'next_step_final_output', output: '{"city":' } }));
    expect(error.reason).toBe('invalid_state');
    expect(error.path).toEqual(['currentStep', 'output']);
    expect(error.message).toContain('Forecaster');
    expect(error.message).toContain('$.currentStep.output');
  });

  it.each(['next_step_run_again', 'next_step_handoff'])('a %s step is kept', async (type) => {
    const { root } = graph();
    const state = await RunState.fromString(root, JSON.stringify(stateJson({ currentStep: { type } })));
    expect(state._currentStep).toEqual({ type });
    expect((state.toJSON() as unknown as Json).currentStep).toEqual({ type });
  });
});

describe('reading the rest of the run', () => {
  it('turn, usage, responses, policy, pending input and trace come back', async () => {
    const { root, helper } = graph();
    const usage = { requests: 2, inputTokens: 5, outputTokens: 7, totalTokens: 12 };
    const json = stateJson({
      currentTurn: 3,
      currentAgent: { name: 'Helper' },
      context: { context: { tenant: 'acme' }, usage, approvals: {}, toolInput: { q: 1 } },
      modelResponses: [{ usage: { requests: 1, inputTokens: 2, outputTokens: 3, totalTokens: 5 }, output: [message('x')], responseId: 'r1' }],
      reasoningItemIdPolicy: 'omit',
      pendingInput: [{ role: 'user', content: 'later' }],
      trace: { object: 'trace', id: 'trace_1', workflow_name: 'wf', group_id: null, metadata: {} },
      currentTurnInProgress: true,
      runId: 'run_1',
    });
    const state = await RunState.fromString(root, JSON.stringify(json));
    expect(state.currentTurn).toBe(3);
    expect(state.currentAgent).toBe(helper);
    expect(state.runId).toBe('run_1');
    expect(state._currentTurnInProgress).toBe(true);
    expect(state.usage.totalTokens).toBe(12);
    expect(state.context.context).toEqual({ tenant: 'acme' });
    expect(state.context.toolInput).toEqual({ q: 1 });
    expect(state.modelResponses[0]!.usage.totalTokens).toBe(5);
    expect(state.modelResponses[0]!.responseId).toBe('r1');
    expect(state._reasoningItemIdPolicy).toBe('omit');
    expect(state.pendingInput).toEqual([{ role: 'user', content: 'later' }]);
    expect(state._trace?.traceId).toBe('trace_1');
  });
});

describe('the tool input a nested run was given', () => {
  // As the reference: the state's toolInput comes back with fromString, and a given context takes it
  // when merging unless it has its own; replacing keeps the given context as it is.
  const withToolInput = () => JSON.stringify(stateJson({ context: { context: {}, usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, approvals: {}, toolInput: { q: 1 } } }));

  it.each([
    ['fromString', undefined, undefined, { q: 1 }],
    ['merge into a context without one', 'merge', undefined, { q: 1 }],
    ['merge into a context with its own', 'merge', { own: true }, { own: true }],
    ['replace', 'replace', undefined, undefined],
  ] as const)('%s', async (_label, strategy, own, expected) => {
    const { root } = graph();
    let state: RunState<any, any>;
    if (strategy === undefined) state = await RunState.fromString(root, withToolInput());
    else {
      const context = new RunContext({});
      if (own !== undefined) context.toolInput = own;
      state = await RunState.fromStringWithContext(root, withToolInput(), context, { contextStrategy: strategy });
    }
    expect(state.context.toolInput).toEqual(expected);
  });
});

describe('reading the context', () => {
  async function pausedWithExpiry() {
    const agent = new Agent({ name: 'Banker', model: new ScriptedModel([[functionCall('pay', { target: 'a' }, { callId: 'a' }), functionCall('pay', { target: 'b' }, { callId: 'b' })]]), tools: [payTool()] });
    const state = (await run(agent, 'pay')).state;
    const [a, b] = state.getInterruptions();
    state.setApprovalExpiry(b!, '2999-01-01T00:00:00.000Z');
    state.approve(a!);
    return { text: state.toString(), root: () => new Agent({ name: 'Banker', model: noModel(), tools: [payTool()] }) };
  }

  it('fromString restores the approvals and the approval requests', async () => {
    const { text, root } = await pausedWithExpiry();
    const state = await RunState.fromString(root(), text);
    expect(state.context.isToolApproved({ toolName: 'pay', callId: 'a' })).toBe(true);
    expect(state.context.getApprovalRequests()).toEqual({ pay: { b: expect.objectContaining({ expiresAt: '2999-01-01T00:00:00.000Z' }) } });
  });

  it("fromStringWithContext: 'merge' (the default) adds the serialized approvals and requests to the given context", async () => {
    const { text, root } = await pausedWithExpiry();
    for (const options of [{}, { contextStrategy: 'merge' as const }]) {
      const context = new RunContext({ mine: true });
      const state = await RunState.fromStringWithContext(root(), text, context, options);
      expect(state.context).toBe(context);
      expect(state.context.context).toEqual({ mine: true });
      expect(context.isToolApproved({ toolName: 'pay', callId: 'a' })).toBe(true);
      expect(context.getApprovalRequests()).toEqual({ pay: { b: expect.objectContaining({ expiresAt: '2999-01-01T00:00:00.000Z' }) } });
    }
  });

  it("fromStringWithContext: 'replace' uses the given context as it is", async () => {
    const { text, root } = await pausedWithExpiry();
    const context = new RunContext({ mine: true });
    const state = await RunState.fromStringWithContext(root(), text, context, { contextStrategy: 'replace' });
    expect(state.context).toBe(context);
    expect(context.isToolApproved({ toolName: 'pay', callId: 'a' })).toBeUndefined();
    expect(context.getApprovalRequests()).toEqual({});
  });
});

describe('reading paused nested agent-tool runs', () => {
  /** Boss calls the agent tool `ask_worker` (Worker, which needs approval to pay) and `ask_clerk` (Clerk). */
  function nestedGraph(options: { worker?: string } = {}) {
    const worker = new Agent({ name: options.worker ?? 'Worker', model: new ScriptedModel([[functionCall('pay', { target: 'x' }, { callId: 'p1' })], [assistantMessage('paid x')]]), tools: [payTool()] });
    const clerk = new Agent({ name: 'Clerk', model: noModel() });
    const boss = new Agent({
      name: 'Boss',
      model: new ScriptedModel([[functionCall('ask_worker', { input: 'pay x' }, { callId: 'a1' })], [assistantMessage('all done')]]),
      tools: [clerk.asTool({ toolName: 'ask_clerk' }), worker.asTool({ toolName: 'ask_worker' })],
    });
    return { boss, worker, clerk };
  }

  async function pausedNested(): Promise<Json> {
    const { boss } = nestedGraph();
    const paused = await run(boss, 'pay x');
    expect(paused.interruptions.map((i) => i.callId)).toEqual(['p1']);
    return JSON.parse(paused.state.toString()) as Json;
  }

  const nestedOf = (json: Json, key = 'ask_worker:a1'): Json => JSON.parse(json.pendingAgentToolRuns[key] as string) as Json;

  it('are restored against the agent of their tool, and the resumed run finishes them', async () => {
    const json = await pausedNested();
    expect(Object.keys(json.pendingAgentToolRuns)).toEqual(['ask_worker:a1']);
    const { boss } = nestedGraph();
    const state = await RunState.fromString(boss, JSON.stringify(json));
    expect([...state._pendingAgentToolRuns.keys()]).toEqual(['ask_worker:a1']);
    expect(JSON.parse(state._pendingAgentToolRuns.get('ask_worker:a1')!).currentAgent).toEqual({ name: 'Worker' });
    state.approve(state.getInterruptions()[0]!);
    const resumed = await run(boss, state);
    expect(resumed.finalOutput).toBe('all done');
  });

  it('a call id holding colons still names the tool before the first colon', async () => {
    const json = await pausedNested();
    json.pendingAgentToolRuns = { 'ask_worker:a1:retry:2': json.pendingAgentToolRuns['ask_worker:a1'] };
    const state = await RunState.fromString(nestedGraph().boss, JSON.stringify(json));
    expect(JSON.parse(state._pendingAgentToolRuns.get('ask_worker:a1:retry:2')!).currentAgent).toEqual({ name: 'Worker' });
  });

  it('a key without a call id is the tool name', async () => {
    const json = await pausedNested();
    json.pendingAgentToolRuns = { ask_worker: json.pendingAgentToolRuns['ask_worker:a1'] };
    const state = await RunState.fromString(nestedGraph().boss, JSON.stringify(json));
    expect(JSON.parse(state._pendingAgentToolRuns.get('ask_worker')!).currentAgent).toEqual({ name: 'Worker' });
  });

  it('renames apply inside nested runs, which are rewritten with the new names', async () => {
    const json = await pausedNested();
    const nested = nestedOf(json);
    nested.currentAgent = { name: 'OldWorker' };
    json.pendingAgentToolRuns['ask_worker:a1'] = JSON.stringify(nested);
    const { boss } = nestedGraph();
    await expect(RunState.fromString(boss, JSON.stringify(json))).rejects.toMatchObject({ reason: 'unresolved_agent' });
    const state = await RunState.fromString(boss, JSON.stringify(json), { agentRenames: { OldWorker: 'Worker' } });
    expect(JSON.parse(state._pendingAgentToolRuns.get('ask_worker:a1')!).currentAgent).toEqual({ name: 'Worker' });
  });

  it('a nested run naming an agent its tool’s graph lacks is refused at the nested path', async () => {
    const json = await pausedNested();
    const nested = nestedOf(json);
    nested.currentAgent = { name: 'Ghost' };
    json.pendingAgentToolRuns['ask_worker:a1'] = JSON.stringify(nested);
    const error = await readError(nestedGraph().boss, json);
    expect(error.reason).toBe('unresolved_agent');
    expect(error.path).toEqual(['pendingAgentToolRuns', 'ask_worker:a1', 'currentAgent']);
    expect(error.message).toContain('Ghost');
    expect(error.message).toContain('$.pendingAgentToolRuns["ask_worker:a1"]');
  });

  it('a nested run that is not JSON is refused at its path', async () => {
    const json = await pausedNested();
    json.pendingAgentToolRuns['ask_worker:a1'] = '{"$schemaVersion":"1", "currentTurn":';
    const error = await readError(nestedGraph().boss, json);
    expect(error.reason).toBe('invalid_json');
    expect(error.path!.slice(0, 2)).toEqual(['pendingAgentToolRuns', 'ask_worker:a1']);
    expect(error.message).toContain('$.pendingAgentToolRuns["ask_worker:a1"]');
  });

  it('a nested run written by a newer version names both versions', async () => {
    const json = await pausedNested();
    const nested = nestedOf(json);
    nested.$schemaVersion = '99';
    json.pendingAgentToolRuns['ask_worker:a1'] = JSON.stringify(nested);
    const error = await readError(nestedGraph().boss, json);
    expect(error.reason).toBe('newer_version');
    expect(error.foundVersion).toBe('99');
    expect(error.supportedVersion).toBe('3');
    expect(error.path).toEqual(['pendingAgentToolRuns', 'ask_worker:a1']);
  });

  it('a nested run inside a nested run is refused at the full path', async () => {
    const json = await pausedNested();
    const nested = nestedOf(json);
    const inner = { ...nested, currentAgent: { name: 'Ghost' }, pendingAgentToolRuns: {} };
    nested.pendingAgentToolRuns = { 'ask_worker:a2': JSON.stringify(inner) };
    // Worker has no agent tool `ask_worker`: its nested run cannot be placed.
    json.pendingAgentToolRuns['ask_worker:a1'] = JSON.stringify(nested);
    const error = await readError(nestedGraph().boss, json);
    expect(error.reason).toBe('unresolved_tool');
    expect(error.path).toEqual(['pendingAgentToolRuns', 'ask_worker:a1', 'pendingAgentToolRuns', 'ask_worker:a2']);
  });

  it.each([
    ['an agent tool the graph lacks', 'ask_nobody:a1', 'ask_nobody'],
    ['a function tool, not an agent tool', 'pay:a1', 'pay'],
    // The tool name is what comes before the first colon, even when nothing does.
    ['a key with no tool name', ':a1', ''],
  ])('a nested run of %s is refused, naming the tool', async (_label, key, toolName) => {
    const json = await pausedNested();
    json.pendingAgentToolRuns = { [key]: json.pendingAgentToolRuns['ask_worker:a1'] };
    const worker = new Agent({ name: 'Worker', model: noModel(), tools: [payTool()] });
    const boss = new Agent({ name: 'Boss', model: noModel(), tools: [payTool(), worker.asTool({ toolName: 'ask_worker' })] });
    const error = await readError(boss, json);
    expect(error.reason).toBe('unresolved_tool');
    expect(error.path).toEqual(['pendingAgentToolRuns', key]);
    expect(error.message).toContain(`named "${toolName}" that no agent`);
    expect(error.message).toContain('Boss');
  });
});

// Copies of tests/compat/fixtures/reference-states, kept in the package so its tests (and the mutation
// run's sandbox of the package) read them without the rest of the repository.
describe('reading states written by @openai/agents 0.20.0 (test/fixtures/reference-states)', () => {
  const fixture = (name: string): string => readFileSync(new URL(`./fixtures/reference-states/${name}`, import.meta.url), 'utf8');

  it('after-handoff: the items keep the agents the reference wrote, the turn, usage and the pending approval', async () => {
    const text = fixture('after-handoff.json');
    const written = JSON.parse(text) as Json;
    const billing = new Agent({ name: 'Billing', model: noModel(), tools: [payTool()] });
    const triage = new Agent({ name: 'Triage', model: noModel(), handoffs: [billing] });
    const state = await RunState.fromString(triage, text);
    expect(state.currentAgent).toBe(billing);
    expect(state.currentTurn).toBe(written.currentTurn);
    expect(state.usage.requests).toBe(written.context.usage.requests);
    const items = state.generatedItems as Json[];
    expect(items.map((item) => item.type)).toEqual((written.generatedItems as Json[]).map((item) => item.type));
    const byName = (ref: Json | undefined) => (ref?.name === 'Triage' ? triage : ref?.name === 'Billing' ? billing : undefined);
    (written.generatedItems as Json[]).forEach((item, i) => {
      for (const field of ['agent', 'sourceAgent', 'targetAgent']) if (item[field]) expect(items[i]![field]).toBe(byName(item[field]));
      expect(items[i]!.rawItem).toMatchObject({ type: item.rawItem.type });
    });
    const step = state._currentStep!;
    const interruptions = step.type === 'next_step_interruption' ? step.data.interruptions : [];
    expect(interruptions.map((i) => i.callId)).toEqual(['call_r']);
    expect(interruptions[0]).toBe(state._generatedItems.find((item) => item.type === 'tool_approval_item'));
  });

  it('nested-agent-tool: the paused nested run is kept under the tool name and call id, against the agent of the tool', async () => {
    const accountant = new Agent({ name: 'Accountant', model: noModel(), tools: [payTool()] });
    const manager = new Agent({ name: 'Manager', model: noModel(), tools: [accountant.asTool({ toolName: 'accountant', toolDescription: 'Pays invoices' })] });
    const state = await RunState.fromString(manager, fixture('nested-agent-tool.json'));
    expect([...state._pendingAgentToolRuns.keys()]).toEqual(['accountant:call_n']);
    const nested = JSON.parse(state._pendingAgentToolRuns.get('accountant:call_n')!) as Json;
    expect(nested.$schemaVersion).toBe('3');
    expect(nested.currentAgent).toEqual({ name: 'Accountant' });
  });

  it('added-input: the input added while paused is kept', async () => {
    const text = fixture('added-input.json');
    const state = await RunState.fromString(new Agent({ name: 'Banker', model: noModel(), tools: [payTool()] }), text);
    expect(state.pendingInput).toEqual((JSON.parse(text) as Json).pendingInput);
  });
});
