import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf } from './sdks.js';

// When an output type is checked: at the agent's construction, or when a run first asks the model
// with it. A table of schemas, each run on both SDKs.

const cases: Array<[string, () => unknown, string]> = [
  ['a zod object', () => z.object({ value: z.string() }), '{"value":"ok"}'],
  ['a zod object with a z.custom() field', () => z.object({ value: z.custom<string>() }), '{"value":"ok"}'],
  ['a zod object with a z.date() field', () => z.object({ value: z.date() }), '{"value":"ok"}'],
  ['a zod object with a z.bigint() field', () => z.object({ value: z.bigint() }), '{"value":"ok"}'],
  ['a zod object nesting a z.custom() object', () => z.object({ inner: z.object({ value: z.custom<string>() }) }), '{"inner":{"value":"ok"}}'],
  ['a zod string', () => z.string(), '"ok"'],
  ['a zod array', () => z.array(z.string()), '["ok"]'],
  ['a zod union of objects', () => z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]), '{"a":"ok"}'],
  ['text', () => 'text', 'ok'],
  [
    'a JSON schema definition',
    () => ({ type: 'json_schema', name: 'answer', strict: true, schema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'], additionalProperties: false } }),
    '{"value":"ok"}',
  ],
];

describe('an output type is checked when the reference checks it (same on both SDKs)', () => {
  it.each(cases)('%s: construction, then a run', async (_label, schema, text) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const model = new testing.ScriptedModel([[testing.assistantMessage(text)]]);
      const made = await outcomeOf(Promise.resolve().then(() => new sdk.Agent({ name: 'A', model, outputType: schema() as never })));
      if (!made.ok) return { made: made.name };
      const ran = await outcomeOf(sdk.run(made.value, 'go'));
      return { made: 'ok', ran: ran.ok ? { finalOutput: ran.value.finalOutput } : ran.name, calls: model.calls.length };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it.each(cases)('%s: assigned after construction, then a run', async (_label, schema, text) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const model = new testing.ScriptedModel([[testing.assistantMessage(text)]]);
      const agent = new sdk.Agent<unknown, any>({ name: 'A', model, outputType: z.object({ other: z.number() }) });
      const assigned = await outcomeOf(Promise.resolve().then(() => (agent.outputType = schema() as never)));
      const ran = await outcomeOf(sdk.run(agent, 'go'));
      return { assigned: assigned.ok ? 'ok' : assigned.name, ran: ran.ok ? { finalOutput: ran.value.finalOutput } : ran.name, calls: model.calls.length };
    });
    expect(both.baton).toEqual(both.reference);
  });
});
