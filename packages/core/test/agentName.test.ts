import { describe, expect, it } from 'vitest';
import { Agent, UserError } from '../src/index.js';

describe('an agent without a name', () => {
  it.each([undefined, '', '   ', 7])('is refused with the reference’s message (%s)', (name) => {
    expect(() => new Agent({ name } as never)).toThrow(UserError);
    expect(() => new Agent({ name } as never)).toThrow('Agent must have a name.');
  });
});
