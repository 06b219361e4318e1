import { describe, expect, it } from 'vitest';
import { UserError } from '@baton/core';
import { keepLastItems } from '../../src/index.js';
import { EARLIER_HISTORY, captureHandoffData, typesOf } from '../helpers.js';

describe('keepLastItems', () => {
  it.each([
    [2, [], [], ['handoff_call_item', 'handoff_output_item']],
    [3, [], [], ['message_output_item', 'handoff_call_item', 'handoff_output_item']],
    // the fourth-last item is the tool output, whose call is cut off: it is dropped
    [4, [], [], ['message_output_item', 'handoff_call_item', 'handoff_output_item']],
    [5, [], ['tool_call_item', 'tool_call_output_item'], ['message_output_item', 'handoff_call_item', 'handoff_output_item']],
    [7, [EARLIER_HISTORY[6]], ['reasoning_item', 'tool_call_item', 'tool_call_output_item'], ['message_output_item', 'handoff_call_item', 'handoff_output_item']],
  ])('keepLastItems(%i) keeps the end of the conversation', async (count, history, pre, fresh) => {
    const data = await captureHandoffData();
    const filtered = await keepLastItems(count)(data);
    expect(filtered.inputHistory).toEqual(history);
    expect(typesOf(filtered.preHandoffItems)).toEqual(pre);
    expect(typesOf(filtered.newItems)).toEqual(fresh);
    expect(filtered.runContext).toBe(data.runContext);
  });

  it('drops a tool output in the input history whose call was cut off', async () => {
    const data = await captureHandoffData(); // 7 history items, 3 before the handoff, 3 new
    expect((await keepLastItems(13)(data)).inputHistory).toEqual(EARLIER_HISTORY);
    expect((await keepLastItems(11)(data)).inputHistory).toEqual(EARLIER_HISTORY.slice(2));
    // the last 10 start with old_call's output, without its call
    expect((await keepLastItems(10)(data)).inputHistory).toEqual(EARLIER_HISTORY.slice(4));
  });

  it('keeps everything, a string input as a string, when the conversation is short enough', async () => {
    const data = await captureHandoffData('short');
    const filtered = await keepLastItems(100)(data);
    expect(filtered).toEqual(data);
    expect(filtered.inputHistory).toBe('short');
  });

  it('counts a string input as one item and drops it when it is cut', async () => {
    const data = await captureHandoffData('short');
    expect((await keepLastItems(7)(data)).inputHistory).toBe('short');
    expect((await keepLastItems(6)(data)).inputHistory).toEqual([]);
  });

  it.each([0, -1, 1.5, '3', undefined])('rejects the count %j with UserError', (count) => {
    expect(() => keepLastItems(count as never)).toThrow(UserError);
    expect(() => keepLastItems(count as never)).toThrow(/keepLastItems\(count\) must be a positive integer/);
  });
});
