import { CURRENT_RUN_STATE_SCHEMA_VERSION, SerializedRunStateSchema } from '@baton/types/internal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, MaxTurnsExceededError, RunContext, RunState, Usage, run, tool } from '../src/index.js';

const square = tool({ name: 'square', description: '', parameters: z.object({ n: z.number() }), execute: ({ n }) => n * n });
const approve = tool({ name: 'approve_me', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'approved' });

function scripted() {
  return new ScriptedModel([
    { output: [functionCall('square', { n: 3 }, { callId: 'sq' })], usage: new Usage({ requests: 1, inputTokens: 5, outputTokens: 1 }), responseId: 'resp_1' },
    { output: [assistantMessage('9')], usage: new Usage({ requests: 1, inputTokens: 8, outputTokens: 1 }), responseId: 'resp_2' },
  ]);
}

describe('RunState getters', () => {
  it('describe a finished run', async () => {
    const agent = new Agent({ name: 'Math', model: scripted(), tools: [square] });
    const result = await run(agent, 'square 3', { context: { user: 'ada' }, maxTurns: 5 });
    const state = result.state;
    expect(state).toBeInstanceOf(RunState);
    expect(state.currentTurn).toBe(2);
    expect(state.currentAgent).toBe(agent);
    expect(state.maxTurns).toBe(5);
    expect(state.originalInput).toBe('square 3');
    expect(state.context).toBeInstanceOf(RunContext);
    expect(state.context.context).toEqual({ user: 'ada' });
    expect(state.usage).toBeInstanceOf(Usage);
    expect(state.usage).toMatchObject({ requests: 2, inputTokens: 13, outputTokens: 2, totalTokens: 15 });
    expect(state.generatedItems.map((i) => i.type)).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
    expect(state.modelResponses.map((r) => r.responseId)).toEqual(['resp_1', 'resp_2']);
    expect(state.getInterruptions()).toEqual([]);
    expect(state.inputGuardrailResults).toEqual([]);
    expect(state.outputGuardrailResults).toEqual([]);
    expect(state.toolInputGuardrailResults).toEqual([]);
    expect(state.toolOutputGuardrailResults).toEqual([]);
    expect(state.hasPendingAgentToolRun('square', 'sq')).toBe(false);
  });

  it('hand out copies, so a caller cannot change the run', async () => {
    const result = await run(new Agent({ name: 'Math', model: scripted(), tools: [square] }), 'square 3');
    result.state.generatedItems.pop();
    result.state.modelResponses.pop();
    result.state.inputGuardrailResults.push({ guardrail: { type: 'input', name: 'x' }, output: { tripwireTriggered: false } });
    expect(result.state.generatedItems).toHaveLength(3);
    expect(result.state.modelResponses).toHaveLength(2);
    expect(result.state.inputGuardrailResults).toEqual([]);
  });

  it('describe the run at the time of an error', async () => {
    const model = new ScriptedModel([[functionCall('square', { n: 2 })], [functionCall('square', { n: 4 })]]);
    const agent = new Agent({ name: 'Math', model, tools: [square] });
    const error = (await run(agent, 'loop', { maxTurns: 2 }).catch((e: unknown) => e)) as MaxTurnsExceededError;
    expect(error).toBeInstanceOf(MaxTurnsExceededError);
    const state = error.state!;
    expect(state.currentTurn).toBe(2);
    expect(state.currentAgent).toBe(agent);
    expect(state.usage.requests).toBe(2);
    expect(state.generatedItems.filter((i) => i.type === 'tool_call_output_item').map((i) => i.type === 'tool_call_output_item' && i.output)).toEqual([4, 16]);
  });
});

describe('RunState serialization', () => {
  it('toJSON() of a finished run matches SerializedRunStateSchema, with agents by name', async () => {
    const agent = new Agent({ name: 'Math', model: scripted(), tools: [square] });
    const result = await run(agent, 'square 3', { context: { user: 'ada' } });
    const json = result.state.toJSON();

    expect(json.$schemaVersion).toBe('3');
    expect(CURRENT_RUN_STATE_SCHEMA_VERSION).toBe('3');
    expect(SerializedRunStateSchema.safeParse(json).success).toBe(true);
    expect(json).toMatchObject({
      currentTurn: 2,
      maxTurns: 10,
      currentAgent: { name: 'Math' },
      originalInput: 'square 3',
      currentStep: { type: 'next_step_final_output', output: '9' },
      context: { context: { user: 'ada' }, usage: { requests: 2, inputTokens: 13, outputTokens: 2, totalTokens: 15 }, approvals: {} },
      pendingAgentToolRuns: {},
    });
    // Items of the current agent leave `agent` out; a raw output that is not the text is kept.
    expect(json.generatedItems).toEqual([
      { type: 'tool_call_item', rawItem: functionCall('square', { n: 3 }, { callId: 'sq' }) },
      {
        type: 'tool_call_output_item',
        rawItem: { type: 'function_call_result', callId: 'sq', name: 'square', status: 'completed', output: { type: 'text', text: '9' } },
        output: 9,
      },
      { type: 'message_output_item', rawItem: assistantMessage('9') },
    ]);
    expect(json.modelResponses.map((r) => [r.responseId, r.usage.inputTokens])).toEqual([
      ['resp_1', 5],
      ['resp_2', 8],
    ]);
  });

  it('toString() is the JSON text, and parses back into a valid state', async () => {
    const result = await run(new Agent({ name: 'Math', model: scripted(), tools: [square] }), 'square 3');
    const text = result.state.toString();
    expect(text).toBe(JSON.stringify(result.state.toJSON()));
    expect(String(result.state)).toBe(text);
    const parsed = SerializedRunStateSchema.safeParse(JSON.parse(text));
    expect(parsed.success).toBe(true);
  });

  it('a structured final output is serialized as JSON text', async () => {
    const agent = new Agent({ name: 'S', model: new ScriptedModel([[assistantMessage('{"a":1}')]]), outputType: z.object({ a: z.number() }) });
    const json = (await run(agent, 'go')).state.toJSON();
    expect(json.currentStep).toEqual({ type: 'next_step_final_output', output: '{"a":1}' });
    expect(SerializedRunStateSchema.safeParse(json).success).toBe(true);
  });

  it('a paused run serializes its interruptions and approval decisions', async () => {
    const model = new ScriptedModel([[functionCall('approve_me', {}, { callId: 'ap1' }), functionCall('approve_me', {}, { callId: 'ap2' })]]);
    const agent = new Agent({ name: 'Gate', model, tools: [approve] });
    const input = [{ type: 'message' as const, role: 'user' as const, content: 'go' }];
    const result = await run(agent, input);
    result.state.approve(result.interruptions[0]!, { decidedBy: 'alice', reason: 'looks fine', decidedAt: '2025-01-01T00:00:00.000Z' });

    const json = result.state.toJSON();
    expect(SerializedRunStateSchema.safeParse(json).success).toBe(true);
    expect(json.originalInput).toEqual(input);
    expect(json.currentTurn).toBe(1);
    expect(json.currentStep?.type).toBe('next_step_interruption');
    const interruptions = json.currentStep?.type === 'next_step_interruption' ? json.currentStep.interruptions : [];
    expect(interruptions.map((i) => [i.type, i.toolName, (i.rawItem as { callId?: string }).callId])).toEqual([
      ['tool_approval_item', 'approve_me', 'ap1'],
      ['tool_approval_item', 'approve_me', 'ap2'],
    ]);
    expect(json.context.approvals.approve_me).toMatchObject({
      approved: ['ap1'],
      rejected: [],
      decisions: { ap1: { approved: true, decidedBy: 'alice', reason: 'looks fine', decidedAt: '2025-01-01T00:00:00.000Z' } },
    });
  });

  it('records decisions in the state’s context, reject and alwaysApprove included', async () => {
    const model = new ScriptedModel([[functionCall('approve_me', {}, { callId: 'x' }), functionCall('approve_me', {}, { callId: 'y' })]]);
    const result = await run(new Agent({ name: 'Gate', model, tools: [approve] }), 'go');
    const [x, y] = result.interruptions;
    result.state.reject(x!, { message: 'no x' });
    expect(result.state.context.isToolApproved({ toolName: 'approve_me', callId: 'x' })).toBe(false);
    expect(result.state.context.getRejectionMessage({ toolName: 'approve_me', callId: 'x' })).toBe('no x');
    expect(result.state.context.isToolApproved({ toolName: 'approve_me', callId: 'y' })).toBeUndefined();
    result.state.approve(y!, { alwaysApprove: true });
    expect(result.state.context.isToolApproved({ toolName: 'approve_me', callId: 'y' })).toBe(true);
    expect(result.state.context.isToolApproved({ toolName: 'approve_me', callId: 'later' })).toBe(true);
    expect(SerializedRunStateSchema.safeParse(result.state.toJSON()).success).toBe(true);
  });
});
