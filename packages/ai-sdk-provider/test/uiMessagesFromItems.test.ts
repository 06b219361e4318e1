import { describe, expect, it } from 'vitest';
import type { AgentInputItem } from '@baton/types';
import { aiSdkUiMessagesFromItems } from '../src/ui.js';

describe('aiSdkUiMessagesFromItems', () => {
  it('reads user content parts, reasoning, text-object outputs and calls left without a result; one assistant message per user turn', () => {
    const items = [
      { role: 'user', content: [{ type: 'input_text', text: 'Hi ' }, { type: 'input_text', text: 'there' }] },
      { type: 'reasoning', content: [{ type: 'input_text', text: 'Thinking.' }] },
      { type: 'function_call', callId: 'c1', name: 'refund', arguments: '{"amount":5}', status: 'completed' },
      { type: 'function_call_result', callId: 'c1', name: 'refund', status: 'completed', output: { type: 'text', text: 'Rejected by the user.' } },
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'No refund.' }] },
      { role: 'user', content: 'Again' },
      { type: 'function_call', callId: 'c2', name: 'lookup', arguments: 'not json', status: 'completed' },
      { type: 'hosted_tool_call', name: 'web_search_call', status: 'completed' },
    ] as unknown as AgentInputItem[];
    expect(aiSdkUiMessagesFromItems(items, { idPrefix: 'm' })).toEqual([
      { id: 'm-0', role: 'user', parts: [{ type: 'text', text: 'Hi there', state: 'done' }] },
      {
        id: 'm-1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'reasoning', text: 'Thinking.', state: 'done' },
          { type: 'dynamic-tool', toolName: 'refund', toolCallId: 'c1', state: 'output-available', input: { amount: 5 }, output: 'Rejected by the user.' },
          { type: 'step-start' },
          { type: 'text', text: 'No refund.', state: 'done' },
        ],
      },
      { id: 'm-2', role: 'user', parts: [{ type: 'text', text: 'Again', state: 'done' }] },
      // Cancelled before it ran (and not waiting for a decision): its input only.
      { id: 'm-3', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'dynamic-tool', toolName: 'lookup', toolCallId: 'c2', state: 'input-available', input: { raw: 'not json' } }] },
    ]);
  });
});
