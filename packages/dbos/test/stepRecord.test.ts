import { describe, expect, it } from 'vitest';
import { fromStepRecord, toStepRecord } from '../src/internal/stepRecord.js';

// A step's output goes to DBOS as its JSON text (DBOS's serializer would walk an object three
// times), and comes back as the same JSON, live or replayed; steps recorded by an earlier release
// (the JSON itself) replay as they are.
describe('step records', () => {
  const values = [null, true, 0, 42.5, '', 'text', '{"looks":"like json"}', [], [1, 'a', null], {}, { output: [{ type: 'message', content: [{ text: 'é ✓ \u2028' }] }], usage: { requests: 1 } }];

  it('are one string in a one-key object, and read back as the JSON written', () => {
    for (const value of values) {
      const record = toStepRecord(value);
      expect(Object.values(record)).toEqual([JSON.stringify(value)]);
      expect(fromStepRecord(JSON.parse(JSON.stringify(record)))).toEqual(value);
    }
  });

  it('recorded by an earlier release (the JSON itself) read back as they are', () => {
    for (const value of values) expect(fromStepRecord(value)).toEqual(value);
    // An output that has the key beside others, or a key's value that is not text, is not a record.
    expect(fromStepRecord({ '~baton.json': '1', other: 2 })).toEqual({ '~baton.json': '1', other: 2 });
    expect(fromStepRecord({ '~baton.json': 1 })).toEqual({ '~baton.json': 1 });
  });
});
