import { describe, expect, it } from 'vitest';
import { CURRENT_RUN_STATE_SCHEMA_VERSION, SerializedRunStateSchema } from '../src/internal.js';
import {
  RunHandoffOutputItem,
  RunMessageOutputItem,
  RunToolApprovalItem,
  RunToolCallItem,
  RunToolCallOutputItem,
  Usage,
  type FunctionCallItem,
} from '../src/index.js';

const zeroUsage = { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** The smallest state the schema accepts: a fresh run before its first turn. */
function minimalState(): Record<string, unknown> {
  return {
    $schemaVersion: '3',
    currentTurn: 0,
    maxTurns: 10,
    currentAgent: { name: 'Assistant' },
    originalInput: 'hello',
    generatedItems: [],
    modelResponses: [],
    context: { context: {}, usage: { ...zeroUsage }, approvals: {} },
    inputGuardrailResults: [],
    outputGuardrailResults: [],
    toolInputGuardrailResults: [],
    toolOutputGuardrailResults: [],
    pendingAgentToolRuns: {},
  };
}

function withChange(change: (state: any) => void): Record<string, unknown> {
  const state = minimalState();
  change(state);
  return state;
}

const agent = { name: 'Assistant' };
const call: FunctionCallItem = { type: 'function_call', callId: 'call_1', name: 'delete_file', arguments: '{"path":"a"}' };

describe('SerializedRunStateSchema', () => {
  it('is at schema version 3', () => {
    expect(CURRENT_RUN_STATE_SCHEMA_VERSION).toBe('3');
  });

  it('accepts a valid minimal state', () => {
    const result = SerializedRunStateSchema.safeParse(minimalState());
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
    expect(result.data).toEqual(minimalState());
  });

  it.each<{ label: string; state: Record<string, unknown> }>([
    { label: 'unlimited maxTurns (null)', state: withChange((s) => (s.maxTurns = null)) },
    { label: 'an agent identity', state: withChange((s) => (s.currentAgent = { name: 'Assistant', identity: 'Assistant#2' })) },
    {
      label: 'an assistant message in its commentary phase',
      state: withChange((s) => (s.generatedItems = [{ type: 'message_output_item', rawItem: { type: 'message', role: 'assistant', status: 'completed', content: [], phase: 'commentary' } }])),
    },
    {
      label: 'input as protocol items (extra fields pass through)',
      state: withChange((s) => (s.originalInput = [{ role: 'user', content: 'hi' }, { type: 'message', role: 'system', content: 'be nice', id: 'x' }])),
    },
    {
      label: 'run items built by the item classes, through JSON',
      state: withChange((s) => {
        const items = [
          new RunMessageOutputItem({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok' }] }, agent),
          new RunToolCallItem(call, agent),
          new RunToolCallOutputItem({ type: 'function_call_result', callId: 'call_1', name: 'delete_file', status: 'completed', output: 'done' }, agent, 'done'),
          new RunHandoffOutputItem(
            { type: 'function_call_result', callId: 'c2', name: 'transfer_to_B', status: 'completed', output: '{"assistant":"B"}' },
            agent,
            { name: 'B' },
          ),
        ];
        s.generatedItems = JSON.parse(JSON.stringify(items));
      }),
    },
    {
      label: 'a model response with Usage.toJSON()',
      state: withChange((s) => {
        s.modelResponses = [{ usage: JSON.parse(JSON.stringify(new Usage({ inputTokens: 3, inputTokensDetails: { cached_tokens: 1 } }))), output: [call], responseId: 'r1' }];
      }),
    },
    {
      label: 'a pending interruption with approvals',
      state: withChange((s) => {
        s.currentTurn = 1;
        s.currentStep = { type: 'next_step_interruption', interruptions: [JSON.parse(JSON.stringify(new RunToolApprovalItem(call, agent)))] };
        s.context.approvals = {
          delete_file: {
            approved: ['call_0'],
            rejected: false,
            decisions: { call_0: { approved: true, decidedBy: 'ann', decidedAt: '2025-01-01T00:00:00Z' } },
          },
          other: { approved: false, rejected: true, stickyRejectMessage: 'never' },
        };
        s.pendingAgentToolRuns = { 'inner:call_3': '{"$schemaVersion":"1"}' };
      }),
    },
    { label: 'a final output step', state: withChange((s) => (s.currentStep = { type: 'next_step_final_output', output: 'done' })) },
    {
      label: 'a tool output with custom data (schema 2)',
      state: withChange((s) => {
        s.generatedItems = [
          {
            type: 'tool_call_output_item',
            rawItem: { type: 'function_call_result', callId: 'call_1', name: 'delete_file', status: 'completed', output: { type: 'text', text: 'ok' } },
            customData: { trace: { id: 7 }, tags: ['a'] },
          },
        ];
      }),
    },
    {
      label: 'guardrail results',
      state: withChange((s) => {
        s.inputGuardrailResults = [{ guardrail: { type: 'input', name: 'g' }, output: { tripwireTriggered: false } }];
        s.outputGuardrailResults = [{ guardrail: { type: 'output', name: 'o' }, agentOutput: 'x', agent, output: { tripwireTriggered: true, outputInfo: 1 } }];
        s.toolInputGuardrailResults = [{ guardrail: { type: 'tool_input', name: 'ti' }, output: { behavior: { type: 'allow' } } }];
        s.toolOutputGuardrailResults = [{ guardrail: { type: 'tool_output', name: 'to' }, output: { behavior: { type: 'rejectContent', message: 'no' } } }];
      }),
    },
    {
      label: 'what the session has not received (schema 3)',
      state: withChange((s) => (s.sessionUnsaved = { input: [{ role: 'user', content: 'go' }], items: [] })),
    },
  ])('accepts $label', ({ state }) => {
    const result = SerializedRunStateSchema.safeParse(state);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  });

  it.each<{ label: string; state: unknown; path: PropertyKey[] }>([
    { label: 'a newer $schemaVersion', state: withChange((s) => (s.$schemaVersion = '4')), path: ['$schemaVersion'] },
    {
      label: 'custom data that is not an object',
      state: withChange((s) => {
        s.generatedItems = [
          { type: 'tool_call_output_item', rawItem: { type: 'function_call_result', callId: 'c', name: 'n', status: 'completed', output: { type: 'text', text: 'ok' } }, customData: ['x'] },
        ];
      }),
      path: ['generatedItems', 0, 'customData'],
    },
    { label: 'a numeric $schemaVersion', state: withChange((s) => (s.$schemaVersion = 1)), path: ['$schemaVersion'] },
    { label: 'a missing $schemaVersion', state: withChange((s) => delete s.$schemaVersion), path: ['$schemaVersion'] },
    { label: 'currentTurn as a string', state: withChange((s) => (s.currentTurn = '0')), path: ['currentTurn'] },
    { label: 'a negative currentTurn', state: withChange((s) => (s.currentTurn = -1)), path: ['currentTurn'] },
    { label: 'a fractional currentTurn', state: withChange((s) => (s.currentTurn = 1.5)), path: ['currentTurn'] },
    { label: 'a negative maxTurns (0 is a limit a run may have)', state: withChange((s) => (s.maxTurns = -1)), path: ['maxTurns'] },
    { label: 'currentAgent as a string', state: withChange((s) => (s.currentAgent = 'Assistant')), path: ['currentAgent'] },
    { label: 'an empty agent name', state: withChange((s) => (s.currentAgent = { name: '' })), path: ['currentAgent', 'name'] },
    { label: 'originalInput as a number', state: withChange((s) => (s.originalInput = 42)), path: ['originalInput'] },
    { label: 'an input item with an unknown role', state: withChange((s) => (s.originalInput = [{ role: 'tool', content: 'x' }])), path: ['originalInput'] },
    { label: 'generatedItems as an object', state: withChange((s) => (s.generatedItems = {})), path: ['generatedItems'] },
    {
      label: 'an unknown run item type',
      state: withChange((s) => (s.generatedItems = [{ type: 'bogus_item', rawItem: {} }])),
      path: ['generatedItems', 0, 'type'],
    },
    {
      label: 'a model response without usage',
      state: withChange((s) => (s.modelResponses = [{ output: [] }])),
      path: ['modelResponses', 0, 'usage'],
    },
    { label: 'negative usage requests', state: withChange((s) => (s.context.usage.requests = -1)), path: ['context', 'usage', 'requests'] },
    { label: 'usage tokens as strings', state: withChange((s) => (s.context.usage.inputTokens = '3')), path: ['context', 'usage', 'inputTokens'] },
    {
      label: 'an approval decision that is a string',
      state: withChange((s) => (s.context.approvals = { t: { approved: 'yes', rejected: false } })),
      path: ['context', 'approvals', 't', 'approved'],
    },
    { label: 'an unknown step type', state: withChange((s) => (s.currentStep = { type: 'next_step_sleep' })), path: ['currentStep', 'type'] },
    {
      label: 'a final output step without output',
      state: withChange((s) => (s.currentStep = { type: 'next_step_final_output' })),
      path: ['currentStep', 'output'],
    },
    {
      label: 'an input guardrail result typed as output',
      state: withChange((s) => (s.inputGuardrailResults = [{ guardrail: { type: 'output', name: 'g' }, output: { tripwireTriggered: false } }])),
      path: ['inputGuardrailResults', 0, 'guardrail', 'type'],
    },
    { label: 'a pending agent-tool run that is not a string', state: withChange((s) => (s.pendingAgentToolRuns = { 'a:b': {} })), path: ['pendingAgentToolRuns', 'a:b'] },
    {
      label: 'an assistant message with a phase no model gives',
      state: withChange((s) => (s.generatedItems = [{ type: 'message_output_item', rawItem: { type: 'message', role: 'assistant', status: 'completed', content: [], phase: 'draft' } }])),
      path: ['generatedItems', 0, 'rawItem', 'phase'],
    },
    { label: 'a missing context', state: withChange((s) => delete s.context), path: ['context'] },
    { label: 'an unsaved item that is not an index', state: withChange((s) => (s.sessionUnsaved = { items: [-1] })), path: ['sessionUnsaved', 'items', 0] },
    { label: 'not an object', state: 'state', path: [] },
  ])('rejects $label', ({ state, path }) => {
    const result = SerializedRunStateSchema.safeParse(state);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path)).toContainEqual(path);
  });
});
