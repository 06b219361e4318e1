import { describe, expect, it } from 'vitest';
import { keepOnlyUserMessages } from '../../src/index.js';
import { EARLIER_HISTORY, captureHandoffData } from '../helpers.js';

describe('keepOnlyUserMessages', () => {
  it('keeps the user’s messages and nothing the agents generated', async () => {
    const data = await captureHandoffData();
    const filtered = keepOnlyUserMessages(data);
    expect(filtered.inputHistory).toEqual([EARLIER_HISTORY[1], EARLIER_HISTORY[6]]);
    expect(filtered.preHandoffItems).toEqual([]);
    expect(filtered.newItems).toEqual([]);
    expect(filtered.runContext).toBe(data.runContext);
  });

  it('keeps a string input as it is', async () => {
    const filtered = keepOnlyUserMessages(await captureHandoffData('refund order 7'));
    expect(filtered.inputHistory).toBe('refund order 7');
  });
});
