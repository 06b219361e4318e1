import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { RunToolApprovalItem, ToolInterruption } from '../src/index.js';

/** The brand another copy of the package would use (a global symbol, not ours by identity). */
const FOREIGN_BRAND = Symbol.for('@baton/types/ToolInterruption');

const approval = new RunToolApprovalItem({ type: 'function_call', callId: 'c1', name: 'delete', arguments: '{}' }, { name: 'Inner' });

describe('ToolInterruption', () => {
  it('keeps interruptions and resume state', () => {
    const interruption = new ToolInterruption([approval], { serialized: 'state' });
    expect(interruption.interruptions).toEqual([approval]);
    expect(interruption.resumeState).toEqual({ serialized: 'state' });
    expect(ToolInterruption.is(interruption)).toBe(true);
  });

  it('recognises a structurally equal object from another copy of the package', () => {
    // What another copy of @baton/types would create: a different class, the same global brand.
    class ForeignToolInterruption {
      readonly [FOREIGN_BRAND] = true;
      constructor(
        readonly interruptions: unknown[],
        readonly resumeState: unknown,
      ) {}
    }
    const foreign = new ForeignToolInterruption([approval], 'state');
    expect(foreign instanceof ToolInterruption).toBe(false);
    expect(ToolInterruption.is(foreign)).toBe(true);
    expect(ToolInterruption.is({ [FOREIGN_BRAND]: true, interruptions: [], resumeState: null })).toBe(true);
  });

  it('recognises an instance built by the CommonJS build of the package', () => {
    const require = createRequire(import.meta.url);
    const cjs = require('../dist/index.cjs') as { ToolInterruption: new (i: unknown[], s: unknown) => object };
    expect(cjs.ToolInterruption).not.toBe(ToolInterruption);
    expect(ToolInterruption.is(new cjs.ToolInterruption([], 'state'))).toBe(true);
  });

  it.each<{ label: string; value: unknown }>([
    { label: 'undefined', value: undefined },
    { label: 'null', value: null },
    { label: 'a string', value: 'interruption' },
    { label: 'a function', value: () => true },
    { label: 'a look-alike without the brand', value: { interruptions: [approval], resumeState: 'state' } },
    { label: 'a brand that is not true', value: { [FOREIGN_BRAND]: 'yes' } },
    { label: 'a string key instead of the symbol', value: { '@baton/types/ToolInterruption': true } },
    { label: 'a different symbol', value: { [Symbol('@baton/types/ToolInterruption')]: true } },
  ])('rejects $label', ({ value }) => {
    expect(ToolInterruption.is(value)).toBe(false);
  });
});
