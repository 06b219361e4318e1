import { describe, expect, it } from 'vitest';
import { RunStateError } from '../src/index.js';
import { readRunStateJson } from '../src/internal.js';

// A pause may be stored in the shape `RunState._currentStep` shows it (`data.interruptions`), and an
// approval in its older shape (`{ rawItem, toolName }`): both read as the schema's own shape.

const call = { type: 'function_call', callId: 'call_1', name: 'delete_file', arguments: '{}', status: 'completed' };

function stateWith(currentStep: unknown, version = '1'): string {
  return JSON.stringify({
    $schemaVersion: version,
    currentTurn: 1,
    maxTurns: 10,
    currentAgent: { name: 'Assistant' },
    originalInput: 'hello',
    generatedItems: [],
    modelResponses: [],
    context: { context: {}, usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, approvals: {} },
    inputGuardrailResults: [],
    outputGuardrailResults: [],
    toolInputGuardrailResults: [],
    toolOutputGuardrailResults: [],
    pendingAgentToolRuns: {},
    currentStep,
  });
}

describe('reading a paused step', () => {
  it('keeps the schema shape as it is', () => {
    const step = { type: 'next_step_interruption', interruptions: [{ type: 'tool_approval_item', rawItem: call, toolName: 'delete_file' }] };
    const text = stateWith(step);
    expect(readRunStateJson(text).state.currentStep).toEqual(step);
  });

  it('reads interruptions listed under data, and an approval without its type', () => {
    const text = stateWith({ type: 'next_step_interruption', data: { interruptions: [{ rawItem: call, toolName: 'delete_file' }] } });
    expect(readRunStateJson(text).state.currentStep).toEqual({
      type: 'next_step_interruption',
      interruptions: [{ type: 'tool_approval_item', rawItem: call, toolName: 'delete_file' }],
    });
  });

  it('does the same for a state written by @openai/agents', () => {
    const text = stateWith({ type: 'next_step_interruption', data: { interruptions: [{ rawItem: call, toolName: 'delete_file' }] } }, '1.22');
    expect(readRunStateJson(text).state.currentStep).toMatchObject({
      type: 'next_step_interruption',
      interruptions: [{ type: 'tool_approval_item', toolName: 'delete_file' }],
    });
  });

  it('still refuses an approval that is not one, naming where', () => {
    const text = stateWith({ type: 'next_step_interruption', data: { interruptions: [{ toolName: 'delete_file' }] } });
    expect(() => readRunStateJson(text)).toThrow(RunStateError);
    expect(() => readRunStateJson(text)).toThrow(/currentStep\.interruptions\[0\]/);
  });
});
