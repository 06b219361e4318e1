import { describe, expect, it } from 'vitest';
import {
  NotifyStreamEvent,
  RunAgentUpdatedStreamEvent,
  RunItemStreamEvent,
  RunRawModelStreamEvent,
  RunToolCallItem,
  StreamingToolContextEvent,
  ToolStreamEndEvent,
  ToolStreamStartEvent,
  type FunctionCallItem,
  type RunStreamEvent,
} from '../src/index.js';

const agent = { name: 'Alice', instructions: 'not serialized' };
const call: FunctionCallItem = { type: 'function_call', callId: 'call_1', name: 'lookup', arguments: '{}' };
const delta = { type: 'output_text_delta', delta: 'Hel' } as const;
const raw = new RunRawModelStreamEvent(delta);
const itemEvent = new RunItemStreamEvent('tool_called', new RunToolCallItem(call, agent));

describe('stream event shapes', () => {
  it.each<{ label: string; event: RunStreamEvent; expected: Record<string, unknown> }>([
    { label: 'RunRawModelStreamEvent', event: raw, expected: { type: 'raw_model_stream_event', data: delta } },
    {
      label: 'RunRawModelStreamEvent with a source',
      event: new RunRawModelStreamEvent(delta, 'inner'),
      expected: { type: 'raw_model_stream_event', data: delta, source: 'inner' },
    },
    { label: 'RunItemStreamEvent', event: itemEvent, expected: { type: 'run_item_stream_event', name: 'tool_called' } },
    { label: 'RunAgentUpdatedStreamEvent', event: new RunAgentUpdatedStreamEvent(agent), expected: { type: 'agent_updated_stream_event', agent } },
    {
      label: 'StreamingToolContextEvent',
      event: new StreamingToolContextEvent('research', 'call_9', raw),
      expected: { type: 'streaming_tool_context_event', toolName: 'research', toolCallId: 'call_9', internalEvent: raw },
    },
    {
      label: 'NotifyStreamEvent',
      event: new NotifyStreamEvent({ progress: 0.5 }, 'research', 'call_9', 'progress'),
      expected: { type: 'notify_stream_event', data: { progress: 0.5 }, toolName: 'research', toolCallId: 'call_9', tag: 'progress' },
    },
    {
      label: 'ToolStreamStartEvent',
      event: new ToolStreamStartEvent('research', 'call_9', '{"q":"x"}'),
      expected: { type: 'tool_stream_start_event', toolName: 'research', toolCallId: 'call_9', input: '{"q":"x"}' },
    },
    {
      label: 'ToolStreamEndEvent with output',
      event: new ToolStreamEndEvent('research', 'call_9', 'done'),
      expected: { type: 'tool_stream_end_event', toolName: 'research', toolCallId: 'call_9', output: 'done' },
    },
    {
      label: 'ToolStreamEndEvent with error',
      event: new ToolStreamEndEvent('research', 'call_9', undefined, { name: 'Error', message: 'boom' }),
      expected: { type: 'tool_stream_end_event', toolName: 'research', toolCallId: 'call_9', error: { name: 'Error', message: 'boom' } },
    },
  ])('$label', ({ event, expected }) => {
    expect(event).toMatchObject(expected);
  });

  it('has type as an own enumerable property so events survive JSON', () => {
    for (const event of [raw, itemEvent, new ToolStreamStartEvent('t', 'c', '{}')]) {
      expect(Object.keys(event)).toContain('type');
      expect(JSON.parse(JSON.stringify(event)).type).toBe(event.type);
    }
  });

  it('serializes a run item event with the agent by name only', () => {
    expect(JSON.parse(JSON.stringify(itemEvent))).toEqual({
      type: 'run_item_stream_event',
      name: 'tool_called',
      item: { type: 'tool_call_item', rawItem: call, agent: { name: 'Alice' } },
    });
  });

  it('serializes a wrapped inner event through the wrapper', () => {
    const wrapped = new StreamingToolContextEvent('research', 'call_9', itemEvent);
    expect(JSON.parse(JSON.stringify(wrapped))).toEqual({
      type: 'streaming_tool_context_event',
      toolName: 'research',
      toolCallId: 'call_9',
      internalEvent: { type: 'run_item_stream_event', name: 'tool_called', item: { type: 'tool_call_item', rawItem: call, agent: { name: 'Alice' } } },
    });
  });
});
