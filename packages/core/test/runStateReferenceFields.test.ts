import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, RunContext, RunRawModelStreamEvent, RunState, Usage, UserError, run } from '../src/index.js';

// The reference's underscore fields and helpers on RunState read and write the live state, and
// every run-state schema version the reference wrote (1.0 to 1.22) is read.

describe('RunState underscore fields', () => {
  const agent = new Agent({ name: 'A', model: new ScriptedModel([]) });

  it('write through to the state: turn, agent, items, responses', () => {
    const state = new RunState(new RunContext(), 'hi', agent, 5);
    const other = new Agent({ name: 'B' });
    state._currentTurn = 2;
    state._currentAgent = other;
    state._generatedItems.push({ type: 'message_output_item', agent: other, rawItem: { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'x' }] } } as never);
    expect(state.currentTurn).toBe(2);
    expect(state.currentAgent).toBe(other);
    expect(state.generatedItems).toHaveLength(1);
    state._generatedItems = [];
    expect(state.generatedItems).toHaveLength(0);
  });

  it('refuse a value of the wrong kind where it is set', () => {
    const state = new RunState(new RunContext(), 'hi', agent, 5);
    expect(() => (state._currentTurn = -1)).toThrow(UserError);
    expect(() => (state._generatedItems = 'x' as never)).toThrow(/_generatedItems must be an array/);
    expect(() => state.setReasoningItemIdPolicy('keep' as never)).toThrow(/'preserve' or 'omit'/);
    state.setReasoningItemIdPolicy('omit');
    expect(state._reasoningItemIdPolicy).toBe('omit');
  });

  it('clearTrace forgets the saved trace; pending agent-tool runs can be set and cleared', async () => {
    const traced = new Agent({ name: 'T', model: new ScriptedModel([[assistantMessage('ok')]]) });
    const result = await run(traced, 'go');
    const state = result.state;
    state.clearTrace();
    expect(state._trace).toBeNull();
    state.setPendingAgentToolRun('inner', 'c1', '{"x":1}');
    expect(state.getPendingAgentToolRun('inner', 'c1')).toBe('{"x":1}');
    state.clearPendingAgentToolRun('inner', 'c1');
    expect(state.hasPendingAgentToolRun('inner', 'c1')).toBe(false);
  });
});

describe('run states written by @openai/agents', () => {
  const agent = new Agent({ name: 'HistoricalAgent', model: new ScriptedModel([]) });
  const minimal = (version: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      $schemaVersion: version,
      currentTurn: 0,
      currentAgent: { name: 'HistoricalAgent' },
      originalInput: 'hello',
      modelResponses: [],
      context: { usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, approvals: {}, context: { tenant: 't1' } },
      maxTurns: 3,
      inputGuardrailResults: [],
      outputGuardrailResults: [],
      generatedItems: [],
      ...extra,
    });

  it.each(['1.0', '1.3', '1.8', '1.16', '1.22'])('schema %s restores, with or without the reference bookkeeping', async (version) => {
    const state = await RunState.fromString(agent, minimal(version));
    expect(state.currentAgent).toBe(agent);
    expect(state.context.context).toEqual({ tenant: 't1' });
    await expect(RunState.fromString(agent, minimal(version, { toolUseTracker: {} }))).resolves.toBeInstanceOf(RunState);
  });

  it.each([
    ['1.7', { generatedItems: [{ type: 'tool_search_call_item', rawItem: { type: 'tool_search_call', id: 'x' }, agent: { name: 'HistoricalAgent' } }] }, 'does not support tool_search items'],
    ['1.14', { sandbox: { sessionState: { version: 2 }, sessionsByAgent: {} } }, 'does not support sandbox session state version 2'],
    ['1.16', { currentTurnDeferredSessionItemIndexes: [] }, 'does not support output guardrail session persistence state'],
    [
      '1.13',
      {
        generatedItems: [
          {
            type: 'tool_call_item',
            rawItem: { type: 'hosted_tool_call', id: 'ci_1', name: 'code_interpreter_call', status: 'completed', caller: { type: 'program', callerId: 'call_prog' } },
            agent: { name: 'HistoricalAgent' },
          },
        ],
      },
      'does not support Programmatic Tool Calling items',
    ],
    ['1.13', { modelResponses: [{ usage: {}, output: [{ type: 'program', id: 'p1', callId: 'call_prog', code: 'x' }] }] }, 'does not support Programmatic Tool Calling items'],
  ])('a %s state carrying what its version could not write is refused in the reference’s words', async (version, extra, message) => {
    await expect(RunState.fromString(agent, minimal(version, extra))).rejects.toThrow(
      `Run state schema version ${version} ${message}. Please reserialize the run state with schema 1.22.`,
    );
  });

  it('a 1.13 state whose application data only resembles program items restores', async () => {
    const context = { usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, approvals: {}, context: { nested: { type: 'program_output' } } };
    const state = await RunState.fromString(agent, minimal('1.13', { context }));
    expect(state.context.context).toEqual({ nested: { type: 'program_output' } });
  });
});

describe('RunContext forks and toolInput', () => {
  it('a fork shares the application context, usage and approvals, and carries its own toolInput', () => {
    const parent = new RunContext({ locale: 'en' });
    parent.approveTool({ toolName: 'pay', callId: 'c1' });
    parent.toolInput = { input: 'stale' };
    const child = parent._forkWithToolInput({ input: 'fresh' });
    expect(child.context).toBe(parent.context);
    expect(child.usage).toBe(parent.usage);
    expect(child.isToolApproved({ toolName: 'pay', callId: 'c1' })).toBe(true);
    child.rejectTool({ toolName: 'pay', callId: 'c2' });
    expect(parent.isToolApproved({ toolName: 'pay', callId: 'c2' })).toBe(false);
    expect(child.toJSON().toolInput).toEqual({ input: 'fresh' });
    expect(parent._forkWithoutToolInput().toolInput).toBeUndefined();
    expect(parent.toolInput).toEqual({ input: 'stale' });
  });

  it('keeps a subclass when it overrides _createFork', () => {
    class Tenant extends RunContext<{ id: string }> {
      protected override _createFork(): RunContext<{ id: string }> {
        return new Tenant(this.context);
      }
    }
    expect(new Tenant({ id: 't' })._forkWithToolInput(1)).toBeInstanceOf(Tenant);
  });

  it('toolInput is written with the state and read back', async () => {
    const context = new RunContext({});
    context.toolInput = { text: 'hola' };
    const agent = new Agent({ name: 'A' });
    const restored = await RunState.fromString(agent, new RunState(context, 'x', agent, 1).toString());
    expect(restored.context.toolInput).toEqual({ text: 'hola' });
  });
});

describe('RunState._trace', () => {
  it('takes a trace object, serializes it (its API key only when asked) and reads it back', async () => {
    const agent = new Agent({ name: 'A' });
    const state = new RunState(new RunContext(), 'hi', agent, 5);
    state._trace = { traceId: 'trace_1', name: 'Workflow', groupId: 'g', tracingApiKey: 'key' };
    expect(state.toJSON().trace).toMatchObject({ id: 'trace_1', workflow_name: 'Workflow', group_id: 'g' });
    expect(state.toJSON().trace?.tracing_api_key).toBeUndefined();
    expect(state.toJSON({ includeTracingApiKey: true }).trace?.tracing_api_key).toBe('key');
    const restored = await RunState.fromString(agent, state.toString({ includeTracingApiKey: true }));
    expect(restored._trace).toMatchObject({ traceId: 'trace_1', name: 'Workflow', groupId: 'g', tracingApiKey: 'key' });
    restored._trace = null;
    expect(restored._trace).toBeNull();
    expect(() => (state._trace = { name: 'x' } as never)).toThrow(UserError);
  });
});

describe('reference spellings', () => {
  it('Usage reads the API’s snake_case fields; a raw model event names its source from providerData', () => {
    const usage = new Usage({ requests: 1, input_tokens: 7, output_tokens: 3, total_tokens: 10 } as never);
    expect([usage.inputTokens, usage.outputTokens, usage.totalTokens]).toEqual([7, 3, 10]);
    const event = new RunRawModelStreamEvent({ type: 'model', event: {}, providerData: { rawModelEventSource: 'openai-responses' } } as never);
    expect(event.source).toBe('openai-responses');
  });
});
