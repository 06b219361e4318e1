import { describe, expect, it } from 'vitest';
import {
  RunHandoffCallItem,
  RunHandoffOutputItem,
  RunMessageOutputItem,
  RunReasoningItem,
  RunToolApprovalItem,
  RunToolCallItem,
  RunToolCallOutputItem,
  type AssistantMessageItem,
  type FunctionCallItem,
  type FunctionCallResultItem,
  type ReasoningItem,
  type RunItem,
} from '../src/index.js';

/** An agent-like object with much more than a name: JSON must keep only the name. */
function agent(name: string) {
  return { name, instructions: `secret instructions of ${name}`, tools: [{ name: 't' }], clone: () => agent(name) };
}

const message: AssistantMessageItem = {
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text: 'Hello' }],
};
const call: FunctionCallItem = { type: 'function_call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' };
const result: FunctionCallResultItem = { type: 'function_call_result', callId: 'call_1', name: 'get_weather', status: 'completed', output: 'cold' };
const reasoning: ReasoningItem = { type: 'reasoning', content: [{ type: 'input_text', text: 'thinking' }] };
const alice = agent('Alice');
const bob = agent('Bob');

describe('run item type and toJSON', () => {
  it.each<{ label: string; item: RunItem; json: Record<string, unknown> }>([
    {
      label: 'RunMessageOutputItem',
      item: new RunMessageOutputItem(message, alice),
      json: { type: 'message_output_item', rawItem: message, agent: { name: 'Alice' } },
    },
    {
      label: 'RunToolCallItem',
      item: new RunToolCallItem(call, alice),
      json: { type: 'tool_call_item', rawItem: call, agent: { name: 'Alice' } },
    },
    {
      label: 'RunToolCallOutputItem',
      item: new RunToolCallOutputItem(result, alice, { tempC: -3 }),
      json: { type: 'tool_call_output_item', rawItem: result, agent: { name: 'Alice' }, output: { tempC: -3 } },
    },
    {
      label: 'RunReasoningItem',
      item: new RunReasoningItem(reasoning, alice),
      json: { type: 'reasoning_item', rawItem: reasoning, agent: { name: 'Alice' } },
    },
    {
      label: 'RunHandoffCallItem',
      item: new RunHandoffCallItem({ ...call, name: 'transfer_to_Bob', arguments: '{}' }, alice),
      json: { type: 'handoff_call_item', rawItem: { ...call, name: 'transfer_to_Bob', arguments: '{}' }, agent: { name: 'Alice' } },
    },
    {
      label: 'RunHandoffOutputItem',
      item: new RunHandoffOutputItem({ ...result, name: 'transfer_to_Bob', output: '{"assistant":"Bob"}' }, alice, bob),
      json: {
        type: 'handoff_output_item',
        rawItem: { ...result, name: 'transfer_to_Bob', output: '{"assistant":"Bob"}' },
        sourceAgent: { name: 'Alice' },
        targetAgent: { name: 'Bob' },
      },
    },
    {
      label: 'RunToolApprovalItem',
      item: new RunToolApprovalItem(call, alice),
      json: {
        type: 'tool_approval_item',
        rawItem: call,
        agent: { name: 'Alice' },
        toolName: 'get_weather',
        functionToolStateKey: '["bare","get_weather"]',
      },
    },
  ])('$label serializes with agents by name only', ({ item, json }) => {
    expect(item.toJSON()).toEqual(json);
    // JSON.stringify goes through toJSON, and no agent internals leak out.
    const text = JSON.stringify(item);
    expect(JSON.parse(text)).toEqual(json);
    expect(text).not.toContain('secret instructions');
  });

  it('keeps the raw item and the agent object on the instance', () => {
    const item = new RunToolCallItem(call, alice);
    expect(item.rawItem).toBe(call);
    expect(item.agent).toBe(alice);
  });
});

describe('RunHandoffOutputItem', () => {
  it('exposes source and target agents; agent is the source', () => {
    const item = new RunHandoffOutputItem(result, alice, bob);
    expect(item.sourceAgent).toBe(alice);
    expect(item.targetAgent).toBe(bob);
    expect(item.agent).toBe(alice);
  });
});

describe('RunToolApprovalItem', () => {
  it('reads name and arguments from the raw call', () => {
    const item = new RunToolApprovalItem(call, alice);
    expect(item.name).toBe('get_weather');
    expect(item.arguments).toBe('{"city":"Oslo"}');
    expect(item.toolName).toBe('get_weather');
  });

  it('keeps an explicit toolName different from the call name', () => {
    const item = new RunToolApprovalItem({ ...call, name: 'weather' }, alice, 'ns.weather');
    expect(item.name).toBe('weather');
    expect(item.toolName).toBe('ns.weather');
    expect(item.toJSON()).toMatchObject({ toolName: 'ns.weather', rawItem: { name: 'weather' } });
  });
});

describe('RunToolApprovalItem.functionToolStateKey', () => {
  it.each<{ label: string; raw: FunctionCallItem; key: string }>([
    { label: 'a plain tool', raw: call, key: '["bare","get_weather"]' },
    { label: 'a tool of a namespace', raw: { ...call, name: 'lookup', namespace: 'crm' }, key: '["namespaced","crm","lookup"]' },
    { label: 'a deferred top-level tool', raw: { ...call, namespace: 'get_weather' }, key: '["deferred_top_level","get_weather"]' },
  ])('keys $label', ({ raw, key }) => {
    const item = new RunToolApprovalItem(raw, alice);
    expect(item.functionToolStateKey).toBe(key);
    expect(item.toJSON().functionToolStateKey).toBe(key);
  });

  it('is absent for a hosted call', () => {
    const item = new RunToolApprovalItem({ type: 'hosted_tool_call', name: 'search', providerData: { id: 'req_1' } }, alice);
    expect(item.functionToolStateKey).toBeUndefined();
    expect(item.toJSON()).not.toHaveProperty('functionToolStateKey');
  });
});

describe('RunMessageOutputItem.content', () => {
  it.each<{ label: string; content: AssistantMessageItem['content']; expected: string }>([
    { label: 'one text part', content: [{ type: 'output_text', text: 'Hi' }], expected: 'Hi' },
    {
      label: 'several text parts joined without separator',
      content: [
        { type: 'output_text', text: 'Hello, ' },
        { type: 'output_text', text: 'world' },
      ],
      expected: 'Hello, world',
    },
    {
      label: 'refusal parts skipped',
      content: [
        { type: 'refusal', refusal: 'no' },
        { type: 'output_text', text: 'ok' },
      ],
      expected: 'ok',
    },
    { label: 'only a refusal', content: [{ type: 'refusal', refusal: 'no' }], expected: '' },
    { label: 'no parts', content: [], expected: '' },
  ])('$label', ({ content, expected }) => {
    expect(new RunMessageOutputItem({ ...message, content }, alice).content).toBe(expected);
  });
});
