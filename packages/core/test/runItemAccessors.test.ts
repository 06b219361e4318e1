import { describe, expect, it } from 'vitest';
import { Agent, RunToolCallItem, RunToolCallOutputItem } from '../src/index.js';

const agent = new Agent({ name: 'Items' });

describe('tool call items name their tool and call', () => {
  it('a function call: its name and callId; a hosted call: its name and item id; a call without a name: undefined', () => {
    const fn = new RunToolCallItem({ type: 'function_call', id: 'fc', callId: 'call_1', name: 'lookup', arguments: '{}' }, agent);
    const hosted = new RunToolCallItem({ type: 'hosted_tool_call', id: 'ws_1', name: 'web_search_call', status: 'completed' }, agent);
    const unnamed = new RunToolCallItem({ type: 'shell_call', id: 'sh', callId: 'call_sh', action: { commands: [] }, status: 'completed' } as never, agent);
    expect([fn.toolName, fn.callId]).toEqual(['lookup', 'call_1']);
    expect([hosted.toolName, hosted.callId]).toEqual(['web_search_call', 'ws_1']);
    expect([unnamed.toolName, unnamed.callId]).toEqual([undefined, 'call_sh']);
    expect(fn.toJSON()).not.toHaveProperty('callId');
  });

  it('an output: the callId it answers, else its item id, else undefined', () => {
    const output = (raw: object) => new RunToolCallOutputItem({ type: 'function_call_result', name: 'lookup', status: 'completed', output: 'ok', ...raw } as never, agent, 'ok');
    expect(output({ callId: 'call_1', id: 'r1' }).callId).toBe('call_1');
    expect(output({ id: 'r1' }).callId).toBe('r1');
    expect(output({}).callId).toBeUndefined();
  });
});
