import { describe, expect, it } from 'vitest';
import type { AgentInputItem } from '@baton/types';
import { itemsToLanguageV2Messages } from '../src/index.js';

const model = { specificationVersion: 'v3', provider: 'anthropic.messages', modelId: 'claude-x' };
const refs = (name: string) => [{ type: 'tool_reference', toolName: name }];

describe('tool search items in the prompt sent to an AI SDK model', () => {
  it('sends a client search as a tool_search call answered by a tool message, the newest answer winning', () => {
    const items = [
      { type: 'tool_search_call', id: 'item_a', arguments: { query: 'orders' }, status: 'completed' },
      { type: 'tool_search_call', callId: 'search_b', arguments: { query: 'refunds' }, status: 'completed' },
      { type: 'tool_search_output', callId: 'search_b', status: 'completed', tools: refs('refund') },
      { type: 'tool_search_output', status: 'completed', tools: refs('order_v1') },
      { type: 'tool_search_output', callId: 'item_a', status: 'completed', tools: refs('order_v2') },
    ] as unknown as AgentInputItem[];
    expect(itemsToLanguageV2Messages(model, items)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'item_a', toolName: 'tool_search', input: { query: 'orders' }, providerOptions: {} },
          { type: 'tool-call', toolCallId: 'search_b', toolName: 'tool_search', input: { query: 'refunds' }, providerOptions: {} },
        ],
        providerOptions: {},
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'search_b', toolName: 'tool_search', output: { type: 'json', value: { status: 'completed', tools: refs('refund') } }, providerOptions: {} }], providerOptions: {} },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'item_a', toolName: 'tool_search', output: { type: 'json', value: { status: 'completed', tools: refs('order_v2') } }, providerOptions: {} }], providerOptions: {} },
    ]);
  });

  it('keeps a provider-executed search and its result in the assistant turn, ahead of client calls, failures as error results', () => {
    const failure = { type: 'tool_search_tool_result_error', errorCode: 'too_many_requests' };
    const items = [
      { type: 'function_call', callId: 'call_1', name: 'lookup', arguments: '{"id":7}', status: 'completed' },
      { type: 'tool_search_call', id: 'srv_1', execution: 'server', arguments: { query: 'lookup' }, status: 'completed' },
      { type: 'tool_search_output', execution: 'server', status: 'completed', tools: refs('lookup') },
      { type: 'tool_search_call', id: 'srv_2', providerData: { execution: 'server' }, arguments: { query: '(' }, status: 'completed' },
      { type: 'tool_search_output', callId: 'srv_2', execution: 'server', status: 'failed', tools: [failure] },
      { type: 'tool_search_output', id: 'stray', execution: 'server', status: 'completed', tools: refs('other') },
      { role: 'user', content: 'thanks' },
    ] as unknown as AgentInputItem[];
    const messages = itemsToLanguageV2Messages(model, items);
    expect(messages.map((message) => message.role)).toEqual(['assistant', 'tool', 'user']);
    expect(messages[0]!.content).toEqual([
      { type: 'tool-call', toolCallId: 'srv_1', toolName: 'tool_search', input: { query: 'lookup' }, providerExecuted: true, providerOptions: {} },
      { type: 'tool-result', toolCallId: 'srv_1', toolName: 'tool_search', output: { type: 'json', value: refs('lookup') }, providerOptions: {} },
      { type: 'tool-call', toolCallId: 'srv_2', toolName: 'tool_search', input: { query: '(' }, providerExecuted: true, providerOptions: { execution: 'server' } },
      { type: 'tool-result', toolCallId: 'srv_2', toolName: 'tool_search', output: { type: 'error-json', value: failure }, providerOptions: {} },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', input: { id: 7 }, providerOptions: {} },
    ]);
    // A server output answering no open provider search stands on its own under its item id.
    expect(messages[1]!.content).toEqual([
      { type: 'tool-result', toolCallId: 'stray', toolName: 'tool_search', output: { type: 'json', value: { status: 'completed', tools: refs('other') } }, providerOptions: {} },
    ]);
  });
});
