import { describe, expect, it } from 'vitest';
import { getTransferMessage } from '../src/index.js';

describe('getTransferMessage', () => {
  it.each([
    { name: 'Billing', expected: '{"assistant":"Billing"}' },
    { name: 'Support agent', expected: '{"assistant":"Support agent"}' },
    { name: 'quote"d', expected: '{"assistant":"quote\\"d"}' },
  ])('names the target agent $name as JSON', ({ name, expected }) => {
    const message = getTransferMessage({ name });
    expect(message).toBe(expected);
    expect(JSON.parse(message)).toEqual({ assistant: name });
  });

  it('uses only the agent name', () => {
    expect(getTransferMessage({ name: 'A', instructions: 'x' } as { name: string })).toBe('{"assistant":"A"}');
  });
});
