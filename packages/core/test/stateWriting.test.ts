import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  OutputGuardrailTripwireTriggered,
  RunContext,
  RunHandoffOutputItem,
  RunInputItem,
  RunMessageOutputItem,
  RunState,
  RunStateError,
  RunToolApprovalItem,
  RunToolCallOutputItem,
  Usage,
  run,
  tool,
} from '../src/index.js';
import { parametersFingerprint } from '../src/packageInternals.js';

// What a written run state holds (the serialized format, `SerializedRunStateSchema` of @baton/types,
// whose optional fields are left out when there is nothing to write), and that it reads back.

const current = new Agent({ name: 'Current' });
const other = new Agent({ name: 'Other' });
const root = new Agent({ name: 'Root', handoffs: [current, other] });

function fresh(): RunState<unknown, Agent<any, any>> {
  const state = new RunState(new RunContext(), 'hi', root, 5);
  state._currentAgent = current;
  return state;
}

/** The state as JSON text parsed, after checking toJSON() is that same data (nothing undefined in it). */
function written(state: RunState<any, any>, options: { includeTracingApiKey?: boolean } = {}) {
  const parsed = JSON.parse(state.toString(options));
  expect(state.toJSON(options)).toStrictEqual(parsed);
  return parsed;
}

const message = (text: string) => assistantMessage(text);
const result = (callId: string, output: unknown) => ({ type: 'function_call_result', callId, name: 'lookup', status: 'completed', output }) as never;

describe('the fields of a written state', () => {
  it('a state that never ran holds the required fields only', () => {
    const json = written(fresh());
    expect(Object.keys(json).sort()).toEqual(
      [
        '$schemaVersion',
        'currentTurn',
        'maxTurns',
        'currentAgent',
        'originalInput',
        'generatedItems',
        'modelResponses',
        'context',
        'inputGuardrailResults',
        'outputGuardrailResults',
        'toolInputGuardrailResults',
        'toolOutputGuardrailResults',
        'pendingAgentToolRuns',
      ].sort(),
    );
    expect(json.context).toStrictEqual({ context: {}, usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, approvals: {} });
    expect(json.pendingAgentToolRuns).toStrictEqual({});
  });

  it('writes the optional fields that are set, and reads them back', async () => {
    const state = fresh();
    state._currentTurnInProgress = true;
    state.setReasoningItemIdPolicy('omit');
    state.context.toolInput = { input: 'from the caller' };
    state.setPendingAgentToolRun('ask_inner', 'c1', '{"nested":true}');
    const json = written(state);
    expect(json.currentTurnInProgress).toBe(true);
    expect(json.reasoningItemIdPolicy).toBe('omit');
    expect(json.context.toolInput).toEqual({ input: 'from the caller' });
    expect(json.pendingAgentToolRuns).toStrictEqual({ 'ask_inner:c1': '{"nested":true}' });
  });

  it('pending nested runs are an ordinary object in toJSON(): entries can be replaced and removed', () => {
    const state = fresh();
    state.setPendingAgentToolRun('ask_inner', 'c1', 'first');
    state.setPendingAgentToolRun('ask_inner', 'c2', 'second');
    const runs = state.toJSON().pendingAgentToolRuns;
    expect(Object.entries(runs)).toEqual([
      ['ask_inner:c1', 'first'],
      ['ask_inner:c2', 'second'],
    ]);
    runs['ask_inner:c1'] = 'replaced';
    delete runs['ask_inner:c2'];
    expect(runs).toStrictEqual({ 'ask_inner:c1': 'replaced' });
  });

  it('keeps the trace, with its tracing API key only when asked to', () => {
    const state = fresh();
    state._trace = { traceId: 'trace_1', name: 'wf', tracingApiKey: 'sk-secret' };
    expect(written(state).trace).toStrictEqual({ object: 'trace', id: 'trace_1', workflow_name: 'wf', group_id: null });
    expect(written(state, { includeTracingApiKey: true }).trace).toStrictEqual({ object: 'trace', id: 'trace_1', workflow_name: 'wf', group_id: null, tracing_api_key: 'sk-secret' });
    state._trace = { traceId: 'trace_2' };
    expect(written(state, { includeTracingApiKey: true }).trace).toStrictEqual({ object: 'trace', id: 'trace_2', workflow_name: 'Agent workflow', group_id: null });
  });

  it('an output guardrail result names its agent', async () => {
    const state = fresh();
    const output = { tripwireTriggered: false, outputInfo: { score: 1 } };
    state._outputGuardrailResults = [{ guardrail: { type: 'output', name: 'g' }, agentOutput: 'draft', agent: other, output }] as never;
    expect(written(state).outputGuardrailResults).toStrictEqual([{ guardrail: { type: 'output', name: 'g' }, agentOutput: 'draft', agent: { name: 'Other' }, output }]);
    const restored = await RunState.fromString(root, state.toString());
    expect(restored.outputGuardrailResults[0]).toMatchObject({ agentOutput: 'draft', output });
    expect(restored.outputGuardrailResults[0]!.agent).toBe(other);
  });

  it.each([
    ['run again', { type: 'next_step_run_again' }, { type: 'next_step_run_again' }],
    ['final text', { type: 'next_step_final_output', output: 'done' }, { type: 'next_step_final_output', output: 'done' }],
    ['final structured output', { type: 'next_step_final_output', output: { a: [1] } }, { type: 'next_step_final_output', output: '{"a":[1]}' }],
  ] as const)('the current step: %s', (_label, step, expected) => {
    const state = fresh();
    state._currentStep = step as never;
    expect(written(state).currentStep).toStrictEqual(expected);
  });
});

describe('items of a written state', () => {
  const handoffResult = { type: 'function_call_result', name: 'transfer_to_Other', callId: 'h1', status: 'completed', output: { type: 'text', text: '{"assistant":"Other"}' } } as never;
  const userInput = { type: 'message', role: 'user', content: 'also this' } as never;

  it.each([
    ['a message of the current agent', () => new RunMessageOutputItem(message('a'), current), { type: 'message_output_item', rawItem: message('a') }],
    ['a message of another agent', () => new RunMessageOutputItem(message('b'), other), { type: 'message_output_item', rawItem: message('b'), agent: { name: 'Other' } }],
    ['admitted input of the current agent', () => new RunInputItem(userInput, current, 'in_1'), { type: 'input_item', rawItem: userInput, inputId: 'in_1' }],
    ['admitted input of another agent', () => new RunInputItem(userInput, other, 'in_2'), { type: 'input_item', rawItem: userInput, inputId: 'in_2', agent: { name: 'Other' } }],
    [
      'a handoff (its two agents, no `agent`)',
      () => new RunHandoffOutputItem(handoffResult, current, other),
      { type: 'handoff_output_item', rawItem: handoffResult, sourceAgent: { name: 'Current' }, targetAgent: { name: 'Other' } },
    ],
  ] as const)('%s', async (_label, make, expected) => {
    const state = fresh();
    const item = make();
    state._generatedItems.push(item as never);
    expect(written(state).generatedItems).toStrictEqual([expected]);
    const [restored] = (await RunState.fromString(root, state.toString())).generatedItems;
    expect(restored!.type).toBe(item.type);
    expect(restored!.rawItem).toEqual(item.rawItem);
    if (item instanceof RunHandoffOutputItem) {
      expect(restored).toMatchObject({ sourceAgent: current, targetAgent: other });
    } else {
      expect(restored!.agent).toBe(item.agent);
    }
    if (item instanceof RunInputItem) expect((restored as RunInputItem).inputId).toBe(item.inputId);
  });

  // The tool's raw return value is written when it is not the text already in rawItem.output
  // (SerializedRunItemSchema); a value JSON cannot carry is written as its text.
  const fn = function namedFn() {
    return 1;
  };
  it.each<[string, unknown, unknown, { output?: unknown }]>([
    ['a string that is the raw text output', 'hello', 'hello', {}],
    ['a string that is the text of a text output', { type: 'text', text: 'hello' }, 'hello', {}],
    ['a string that differs from the raw text output', 'hello', 'HELLO', { output: 'HELLO' }],
    ['a string that differs from the text of a text output', { type: 'text', text: 'hello' }, 'bye', { output: 'bye' }],
    ['a string beside a non-text output', { type: 'image', image: 'https://example.com/x.png' }, 'https://example.com/x.png', { output: 'https://example.com/x.png' }],
    ['a string beside an output with no type', { text: 'hello' }, 'hello', { output: 'hello' }],
    ['a string beside a null raw output', null, 'hello', { output: 'hello' }],
    ['a string equal to the type of a text output', { type: 'text', text: 'hello' }, 'text', { output: 'text' }],
    ['an empty string beside an empty text output', { type: 'text', text: '' }, '', {}],
    ['a number', { type: 'text', text: '9' }, 9, { output: 9 }],
    ['a boolean', 'true', true, { output: true }],
    ['null', 'null', null, { output: null }],
    ['a bigint, as its text', '12', 12n, { output: '12' }],
    ['a symbol, as its text', 'Symbol(s)', Symbol('s'), { output: 'Symbol(s)' }],
    ['a function, as its text', 'fn', fn, { output: String(fn) }],
    ['an object holding null', 'x', { a: null, b: [null, 1] }, { output: { a: null, b: [null, 1] } }],
  ])('a tool output: %s', (_label, rawOutput, output, expected) => {
    const state = fresh();
    state._generatedItems.push(new RunToolCallOutputItem(result('c1', rawOutput), current, output));
    expect(written(state).generatedItems).toStrictEqual([{ type: 'tool_call_output_item', rawItem: result('c1', rawOutput), ...expected }]);
  });

  it.each([
    ['an empty text', ''],
    ['a non-text output', { type: 'image', image: 'https://example.com/x.png' }],
    ['a null raw output', null],
  ])('an undefined tool output beside %s is written (it is not the text of the raw output)', (_label, rawOutput) => {
    const state = fresh();
    state._generatedItems.push(new RunToolCallOutputItem(result('c1', rawOutput), current, undefined));
    const [item] = written(state).generatedItems;
    expect(Object.keys(item)).toContain('output');
  });

  it('a string output beside a raw item without an output is written', () => {
    const state = fresh();
    const rawItem = { type: 'function_call_result', callId: 'c1', name: 'lookup', status: 'completed' } as never;
    state._generatedItems.push(new RunToolCallOutputItem(rawItem, current, 'hello'));
    expect(written(state).generatedItems).toStrictEqual([{ type: 'tool_call_output_item', rawItem, output: 'hello' }]);
  });

  it('a tool output JSON cannot carry (a bigint inside) is written as text, and the state is written', async () => {
    const state = fresh();
    state._generatedItems.push(new RunToolCallOutputItem(result('c1', 'x'), current, { n: 1n }));
    const [item] = written(state).generatedItems;
    expect(typeof item.output).toBe('string');
    await expect(RunState.fromString(root, state.toString())).resolves.toBeInstanceOf(RunState);
  });

  it('a tool output left out is read back as the text of the raw output', async () => {
    const state = fresh();
    state._generatedItems.push(new RunToolCallOutputItem(result('c1', { type: 'text', text: 'hello' }), other, 'hello'));
    const [restored] = (await RunState.fromString(root, state.toString())).generatedItems;
    expect(restored).toBeInstanceOf(RunToolCallOutputItem);
    expect((restored as RunToolCallOutputItem).output).toBe('hello');
    expect(restored!.agent).toBe(other);
  });
});

describe('approval items carry the fingerprint of their tool’s parameters', () => {
  const small = tool({ name: 'small', description: '', parameters: z.object({ a: z.string() }), needsApproval: true, execute: () => 'ok' });
  const large = tool({ name: 'large', description: '', parameters: z.object({ b: z.number(), c: z.boolean() }), needsApproval: true, execute: () => 'ok' });

  it('of the tool the call names, among several', async () => {
    expect(parametersFingerprint(small)).not.toBe(parametersFingerprint(large));
    const model = new ScriptedModel([[functionCall('large', { b: 1, c: true }, { callId: 'l1' }), functionCall('small', { a: 'x' }, { callId: 's1' })]]);
    const agent = new Agent({ name: 'Gate', model, tools: [small, large] });
    const paused = await run(agent, 'go');
    const json = written(paused.state);
    const interruptions = json.currentStep.interruptions as Array<{ toolName: string; parametersFingerprint?: string }>;
    expect(interruptions.map((i) => [i.toolName, i.parametersFingerprint])).toEqual([
      ['large', parametersFingerprint(large)],
      ['small', parametersFingerprint(small)],
    ]);
    const approvals = json.generatedItems.filter((i: { type: string }) => i.type === 'tool_approval_item');
    expect(approvals.map((i: { parametersFingerprint?: string }) => i.parametersFingerprint)).toEqual([parametersFingerprint(large), parametersFingerprint(small)]);
  });

  it('none when the agent has no tool of that name', () => {
    const state = fresh();
    const call = functionCall('gone', {}, { callId: 'g1' });
    state._currentStep = { type: 'next_step_interruption', data: { interruptions: [new RunToolApprovalItem(call as never, current, 'gone')] } };
    expect(written(state).currentStep).toStrictEqual({ type: 'next_step_interruption', interruptions: [{ type: 'tool_approval_item', rawItem: call, toolName: 'gone' }] });
  });
});

describe('a paused run’s decisions and added input', () => {
  const gated = tool({ name: 'gated', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'ok' });

  it('writes an approval expiry and input added for the next model call, and reads them back', async () => {
    const model = new ScriptedModel([[functionCall('gated', {}, { callId: 'g1' })]]);
    const agent = new Agent({ name: 'Gate', model, tools: [gated] });
    const paused = await run(agent, 'go');
    const state = paused.state;
    expect(written(state).pendingInput).toBeUndefined();
    state.setApprovalExpiry(paused.interruptions[0]!, '2030-01-01T00:00:00.000Z');
    state.addInput('and then this');
    const json = written(state);
    expect(json.pendingInput).toEqual([{ type: 'message', role: 'user', content: 'and then this' }]);
    expect(Object.keys(json.context.approvalRequests)).toEqual(['gated']);
    expect(Object.keys(json.context.approvalRequests.gated)).toEqual(['g1']);
    const restored = await RunState.fromString(agent, state.toString());
    expect(restored.pendingInput).toEqual(state.pendingInput);
    expect(restored.context.toJSON().approvalRequests).toEqual(state.context.toJSON().approvalRequests);
  });

  it('a final answer whose output guardrail has not passed is not written as the current step', async () => {
    const agent = new Agent({
      name: 'Checked',
      model: new ScriptedModel([[assistantMessage('secret')]]),
      outputGuardrails: [{ name: 'no_secrets', execute: async () => ({ tripwireTriggered: true, outputInfo: null }) }],
    });
    const error = await run(agent, 'go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    const json = written((error as OutputGuardrailTripwireTriggered).state as RunState<any, any>);
    expect(json.currentStep).toBeUndefined();
  });
});

describe('model responses and usage', () => {
  const response = (fields: Record<string, unknown>) => ({ usage: new Usage({ requests: 1, inputTokens: 1, outputTokens: 1 }), output: [], ...fields }) as never;

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['ids and provider data', { responseId: 'resp_1', requestId: 'req_1', providerData: { region: 'eu' } }, { responseId: 'resp_1', requestId: 'req_1', providerData: { region: 'eu' } }],
    ['a response id only', { responseId: 'resp_1' }, { responseId: 'resp_1' }],
    ['a request id only', { requestId: 'req_1' }, { requestId: 'req_1' }],
    ['provider data only', { providerData: { a: 1 } }, { providerData: { a: 1 } }],
    ['none of them', {}, {}],
  ])('a response with %s', async (_label, fields, expected) => {
    const state = fresh();
    state._modelResponses.push(response(fields));
    expect(written(state).modelResponses).toStrictEqual([{ usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }, output: [], ...expected }]);
    const [restored] = (await RunState.fromString(root, state.toString())).modelResponses;
    expect(restored).toMatchObject(expected);
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['the counts, the total given', { requests: 2, inputTokens: 3, outputTokens: 4, totalTokens: 10 }, { requests: 2, inputTokens: 3, outputTokens: 4, totalTokens: 10 }],
    ['a total of zero kept', { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 0 }, { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 0 }],
    ['no total: the sum', { requests: 1, inputTokens: 3, outputTokens: 4 }, { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 }],
    ['token details as lists', { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7, inputTokensDetails: [{ cached_tokens: 1 }], outputTokensDetails: [{ reasoning_tokens: 2 }] }, { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7, inputTokensDetails: [{ cached_tokens: 1 }], outputTokensDetails: [{ reasoning_tokens: 2 }] }],
    ['token details as single records', { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7, inputTokensDetails: { cached_tokens: 1 }, outputTokensDetails: { reasoning_tokens: 2 } }, { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7, inputTokensDetails: [{ cached_tokens: 1 }], outputTokensDetails: [{ reasoning_tokens: 2 }] }],
    ['empty detail lists left out', { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7, inputTokensDetails: [], outputTokensDetails: [] }, { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 }],
    ['an empty list of request entries left out', { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7, requestUsageEntries: [] }, { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 }],
    [
      'request entries: totals, details and endpoint',
      {
        requests: 3,
        inputTokens: 6,
        outputTokens: 6,
        totalTokens: 12,
        requestUsageEntries: [
          { inputTokens: 1, outputTokens: 2 },
          { inputTokens: 2, outputTokens: 2, totalTokens: 9, outputTokensDetails: { reasoning_tokens: 1 }, endpoint: 'responses.create' },
          { inputTokens: 3, outputTokens: 2, totalTokens: 0 },
        ],
      },
      {
        requests: 3,
        inputTokens: 6,
        outputTokens: 6,
        totalTokens: 12,
        requestUsageEntries: [
          { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
          { inputTokens: 2, outputTokens: 2, totalTokens: 9, outputTokensDetails: { reasoning_tokens: 1 }, endpoint: 'responses.create' },
          { inputTokens: 3, outputTokens: 2, totalTokens: 0 },
        ],
      },
    ],
  ])('a response’s usage: %s', (_label, usage, expected) => {
    const state = fresh();
    state._modelResponses.push({ usage, output: [] } as never);
    expect(written(state).modelResponses[0].usage).toStrictEqual(expected);
  });
});

describe('a state that cannot be written', () => {
  function nested(levels: number): unknown {
    let value: unknown = 'leaf';
    for (let i = 0; i < levels; i++) value = { d: value };
    return value;
  }

  it('a context deeper than the reader reads is a RunStateError naming the path, caused by the reader’s refusal', () => {
    const state = new RunState(new RunContext({ deep: nested(250) }), 'hi', root, 5);
    const error = (() => {
      try {
        state.toString();
      } catch (caught) {
        return caught;
      }
    })() as RunStateError;
    expect(error).toBeInstanceOf(RunStateError);
    expect(error.reason).toBe('too_deep');
    expect(error.path?.slice(0, 3)).toEqual(['context', 'context', 'deep']);
    expect(error.message).toContain(`at $.context.context.deep.d.d`);
    expect(error.cause).toBeInstanceOf(RunStateError);
    expect((error.cause as RunStateError).path).toEqual(error.path);
  });

  it('an error a context throws while it is written is that error', () => {
    const boom = new TypeError('the context refuses to be read');
    const context = {
      get secret(): string {
        throw boom;
      },
    };
    Object.defineProperty(context, 'secret', { enumerable: true });
    const state = new RunState(new RunContext(context), 'hi', root, 5);
    expect(() => state.toString()).toThrow(boom);
  });

  it('a context too deep for JSON itself is a RunStateError (too_deep) caused by the RangeError', () => {
    const context = { toJSON: () => nested(200_000) };
    const state = new RunState(new RunContext(context), 'hi', root, 5);
    const error = (() => {
      try {
        state.toString();
      } catch (caught) {
        return caught;
      }
    })() as RunStateError;
    expect(error).toBeInstanceOf(RunStateError);
    expect(error.reason).toBe('too_deep');
    expect(error.message).toMatch(/^RunState\.toString: the state cannot be serialized \(.+\); is the run context nested too deeply\?$/);
    expect(error.cause).toBeInstanceOf(RangeError);
  });
});
