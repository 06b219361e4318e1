import { describe, expect, it } from 'vitest';
import { Agent, RunMessageOutputItem, RunToolApprovalItem, RunToolSearchCallItem, RunToolSearchOutputItem } from '@baton/core';
import { assistantMessage, functionCall } from '@baton/testing';
import { removeAllTools } from '../../src/index.js';
import { EARLIER_HISTORY, captureHandoffData, typesOf } from '../helpers.js';

describe('removeAllTools', () => {
  it('drops tool calls and outputs, handoff items and reasoning everywhere; messages stay', async () => {
    const data = await captureHandoffData();
    const filtered = removeAllTools(data);
    expect(filtered.inputHistory).toEqual([EARLIER_HISTORY[0], EARLIER_HISTORY[1], EARLIER_HISTORY[5], EARLIER_HISTORY[6]]);
    expect(filtered.preHandoffItems).toEqual([]);
    expect(typesOf(filtered.newItems)).toEqual(['message_output_item']);
    expect(filtered.newItems[0]).toBe(data.newItems[0]);
    expect(filtered.runContext).toBe(data.runContext);
  });

  it('leaves the given data untouched and keeps a string input as it is', async () => {
    const data = await captureHandoffData('just text');
    const before = [data.preHandoffItems.length, data.newItems.length];
    const filtered = removeAllTools(data);
    expect(filtered.inputHistory).toBe('just text');
    expect([data.preHandoffItems.length, data.newItems.length]).toEqual(before);
  });

  it('drops approval requests and reference-only tool item types', () => {
    const agent = new Agent({ name: 'A' });
    const message = new RunMessageOutputItem(assistantMessage('hi'), agent);
    const approval = new RunToolApprovalItem(functionCall('delete', {}), agent);
    const filtered = removeAllTools({
      inputHistory: [{ type: 'computer_call' } as never, { type: 'message', role: 'user', content: 'hi' }, { type: 'shell_call_output' } as never],
      preHandoffItems: [approval, message],
      newItems: [approval],
    });
    expect(filtered).toEqual({ inputHistory: [{ type: 'message', role: 'user', content: 'hi' }], preHandoffItems: [message], newItems: [] });
  });

  it('drops tool search calls and their outputs from the run items too', () => {
    const agent = new Agent({ name: 'A' });
    const message = new RunMessageOutputItem(assistantMessage('kept'), agent);
    const search = new RunToolSearchCallItem({ type: 'tool_search_call', id: 'ts_1', status: 'completed', arguments: { paths: ['crm'] } }, agent);
    const answer = new RunToolSearchOutputItem({ type: 'tool_search_output', id: 'tso_1', status: 'completed', tools: [] }, agent);
    const filtered = removeAllTools({ inputHistory: 'text', preHandoffItems: [search, message], newItems: [answer] });
    expect(filtered.preHandoffItems).toEqual([message]);
    expect(filtered.newItems).toEqual([]);
  });
});
