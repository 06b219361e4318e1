import { describe, expect, it } from 'vitest';
import { removeReasoning } from '../../src/index.js';
import { EARLIER_HISTORY, captureHandoffData, typesOf } from '../helpers.js';

describe('removeReasoning', () => {
  it('drops reasoning from the history and the run items, and nothing else', async () => {
    const data = await captureHandoffData();
    const filtered = removeReasoning(data);
    expect(filtered.inputHistory).toEqual(EARLIER_HISTORY.filter((item) => item.type !== 'reasoning'));
    expect(typesOf(filtered.preHandoffItems)).toEqual(['tool_call_item', 'tool_call_output_item']);
    expect(filtered.newItems).toEqual(data.newItems);
    expect(filtered.runContext).toBe(data.runContext);
  });

  it('keeps a string input', async () => {
    expect(removeReasoning(await captureHandoffData('text')).inputHistory).toBe('text');
  });
});
