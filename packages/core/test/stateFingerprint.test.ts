import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, functionCall } from '@baton/testing';
import { Agent, run, tool } from '../src/index.js';
import { parametersFingerprint } from '../src/packageInternals.js';

// A paused approval stores the fingerprint of the tool's parameter schema, and `checkResumable`
// (`@baton/hitl-state`, through `@baton/core/internal`'s `parametersFingerprint`) reports the
// approval when the rebuilt tool's schema changed since (packages/hitl-state/README.md). So the
// fingerprint must stay the same for the same schema (in any key order, in either encoding Baton has
// written an optional field in, with or without `$schema`) and for states stored by earlier versions,
// and must change whenever the schema itself changes.

const fp = (parameters: unknown) => parametersFingerprint({ parameters });

/** An object schema with one property of the given schema, as tools send it. */
const objectWith = (property: unknown): Record<string, unknown> => ({
  type: 'object',
  properties: { value: property },
  required: ['value'],
  additionalProperties: false,
});

describe('parameter fingerprints of states stored by earlier versions', () => {
  // The fingerprints in packages/hitl-state/test/fixtures/run-state/v1 (written by @baton/core 0.1.0,
  // never edited): the same tool rebuilt today must give the same fingerprint, or every stored
  // approval would be reported as changed.
  const stored = [
    { fixture: 'decided-approvals.json (pay), duplicate-names.json (ship)', parameters: z.object({ target: z.string() }), fingerprint: 'bd3b6ff040071b31' },
    { fixture: 'weather-interrupted.json (get_weather)', parameters: z.object({ location: z.string() }), fingerprint: 'cde35718619fd3c0' },
  ];

  it.each(stored)('$fixture: a paused run of the same tool writes $fingerprint', async ({ parameters, fingerprint }) => {
    const pay = tool({ name: 'pay', description: 'pay', parameters, needsApproval: true, execute: () => 'paid' });
    const args = 'target' in parameters.shape ? { target: 'a' } : { location: 'Oakland' };
    const agent = new Agent({ name: 'Banker', model: new ScriptedModel([[functionCall('pay', args, { callId: 'c1' })]]), tools: [pay] });
    const paused = await run(agent, 'pay a');
    const json = paused.state.toJSON() as unknown as { generatedItems: Array<{ type: string; parametersFingerprint?: string }>; currentStep: { interruptions: Array<{ parametersFingerprint?: string }> } };
    const approvals = json.generatedItems.filter((item) => item.type === 'tool_approval_item');
    expect(approvals.map((item) => item.parametersFingerprint)).toEqual([fingerprint]);
    expect(json.currentStep.interruptions.map((item) => item.parametersFingerprint)).toEqual([fingerprint]);
    expect(parametersFingerprint(pay)).toBe(fingerprint);
  });
});

describe('parametersFingerprint', () => {
  it('is 16 lowercase hex digits (64 bits, zero-padded) for every schema, like the stored ones', () => {
    // Enough schemas that both halves of some fingerprint start with a zero digit.
    const prints = Array.from({ length: 300 }, (_, i) => fp(objectWith({ type: 'string', description: `field ${i}` })));
    for (const print of prints) expect(print).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(prints).size).toBe(prints.length);
    expect(fp({ type: 'string' })).toMatch(/^[0-9a-f]{16}$/);
    expect(fp(undefined)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is the same for the same schema object asked twice, and for an equal copy of it', () => {
    const schema = objectWith({ type: 'string' });
    expect(fp(schema)).toBe(fp(schema));
    expect(fp(structuredClone(schema))).toBe(fp(schema));
  });

  // Pairs that are the same schema: written in another key order, in the other encoding of an
  // optional field, with `$schema`, or as a JS value whose JSON is the same.
  const same: Array<[string, unknown, unknown]> = [
    ['key order', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] }, { required: ['a'], properties: { b: { type: 'number' }, a: { type: 'string' } }, type: 'object' }],
    ['$schema at the top', { $schema: 'http://json-schema.org/draft-07/schema#', ...objectWith({ type: 'string' }) }, objectWith({ type: 'string' })],
    ['$schema in a nested schema', objectWith({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' }), objectWith({ type: 'string' })],
    ['an optional field as anyOf [X, null] and as a type list', objectWith({ anyOf: [{ type: 'string' }, { type: 'null' }] }), objectWith({ type: ['string', 'null'] })],
    ['anyOf [null, X] and a type list', objectWith({ anyOf: [{ type: 'null' }, { type: 'string' }] }), objectWith({ type: ['string', 'null'] })],
    ['anyOf [X with keywords, null] keeps the keywords', objectWith({ anyOf: [{ type: 'integer', minimum: 1, description: 'count' }, { type: 'null' }] }), objectWith({ type: ['integer', 'null'], minimum: 1, description: 'count' })],
    ['anyOf [enum, null]: null joins the enum', objectWith({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] }), objectWith({ type: ['string', 'null'], enum: ['a', 'b', null] })],
    ['anyOf [enum with null, null]: null is not added twice', objectWith({ anyOf: [{ type: 'string', enum: ['a', null] }, { type: 'null' }] }), objectWith({ type: ['string', 'null'], enum: ['a', null] })],
    ['an optional field inside an array of objects', { type: 'array', items: objectWith({ anyOf: [{ type: 'number' }, { type: 'null' }] }) }, { type: 'array', items: objectWith({ type: ['number', 'null'] }) }],
    ['a key whose value is undefined (absent in JSON)', objectWith({ type: 'string', description: undefined }), objectWith({ type: 'string' })],
    ['undefined in an array (null in JSON)', objectWith({ enum: ['a', undefined] }), objectWith({ enum: ['a', null] })],
    ['no parameters and null parameters', undefined, null],
    // A value JSON cannot hold is null in JSON, whatever properties it carries.
    ['a function inside anyOf (null in JSON)', objectWith({ anyOf: [Object.assign(() => undefined, { type: 'string' }), { type: 'null' }] }), objectWith({ anyOf: [null, { type: 'null' }] })],
  ];

  it.each(same)('the same schema: %s', (_label, a, b) => {
    expect(fp(a)).toBe(fp(b));
  });

  // Pairs that are different schemas: the fingerprint must tell them apart.
  const different: Array<[string, unknown, unknown]> = [
    ['a property type', objectWith({ type: 'string' }), objectWith({ type: 'number' })],
    ['a property name', { type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }],
    ['a required list', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: { a: { type: 'string' } }, required: [] }],
    ['a description', objectWith({ type: 'string', description: 'city' }), objectWith({ type: 'string', description: 'town' })],
    ['a string constant', objectWith({ const: 'a' }), objectWith({ const: 'b' })],
    ['a boolean value', objectWith({ type: 'string', nullable: true }), objectWith({ type: 'string', nullable: false })],
    ['array elements split differently', objectWith({ enum: [1, 23] }), objectWith({ enum: [12, 3] })],
    ['array elements split differently (strings)', objectWith({ enum: ['ab', 'c'] }), objectWith({ enum: ['a', 'bc'] })],
    ['an array and an object with index keys', objectWith({ enum: ['a', 'b'] }), objectWith({ enum: { 0: 'a', 1: 'b' } })],
    ['an optional field and a required one', objectWith({ anyOf: [{ type: 'string' }, { type: 'null' }] }), objectWith({ type: 'string' })],
    ['the type of an optional field', objectWith({ anyOf: [{ type: 'string' }, { type: 'null' }] }), objectWith({ anyOf: [{ type: 'number' }, { type: 'null' }] })],
    ['a keyword beside anyOf', objectWith({ anyOf: [{ type: 'string' }, { type: 'null' }], title: 'A' }), objectWith({ anyOf: [{ type: 'string' }, { type: 'null' }], title: 'B' })],
    ['a third anyOf branch', objectWith({ anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'number' }] }), objectWith({ anyOf: [{ type: 'string' }, { type: 'null' }] })],
    ['a null branch with its own keywords', objectWith({ anyOf: [{ type: 'string' }, { type: 'null', description: 'none' }] }), objectWith({ anyOf: [{ type: 'string' }, { type: 'null', description: 'nothing' }] })],
    // anyOf [{ const }, null] accepts the constant or null; a type list with `const` accepts the constant only.
    ['a nullable constant and a constant', objectWith({ anyOf: [{ type: 'string', const: 'x' }, { type: 'null' }] }), objectWith({ type: ['string', 'null'], const: 'x' })],
    ['an enum branch without a type', objectWith({ anyOf: [{ enum: ['a'] }, { type: 'null' }] }), objectWith({ anyOf: [{ enum: ['a', null] }, { type: 'null' }] })],
    ['a branch with a type list', objectWith({ anyOf: [{ type: ['string', 'number'] }, { type: 'null' }] }), objectWith({ anyOf: [{ type: ['string', 'integer'] }, { type: 'null' }] })],
    ['a string given as parameters', 'a', 'b'],
    ['a top-level type', { type: 'string' }, { type: 'number' }],
  ];

  it.each(different)('a different schema: %s', (_label, a, b) => {
    expect(fp(a)).not.toBe(fp(b));
  });

  // Shapes no real schema has, which a hand-written `parameters` may still hold: fingerprinting a
  // paused approval must not throw (writing the state would fail), and equal values stay equal.
  const odd: Array<[string, unknown]> = [
    ['anyOf of two non-null branches', objectWith({ anyOf: [{ type: 'string' }, { type: 'number' }] })],
    ['anyOf with a null element', objectWith({ anyOf: [null, { type: 'null' }] })],
    ['anyOf with an undefined element', objectWith({ anyOf: [undefined, { type: 'null' }] })],
    ['anyOf with a string element', objectWith({ anyOf: ['x', { type: 'null' }] })],
    ['null values in a schema', objectWith({ type: 'string', default: null, enum: [null] })],
    ['anyOf that is not an array', objectWith({ anyOf: { type: 'null' } })],
    ['an empty anyOf', objectWith({ anyOf: [] })],
  ];

  it.each(odd)('odd shapes still fingerprint: %s', (_label, schema) => {
    expect(() => fp(schema)).not.toThrow();
    expect(fp(schema)).toMatch(/^[0-9a-f]{16}$/);
    expect(fp(structuredClone(schema))).toBe(fp(schema));
  });

  it('two-branch anyOf without a null branch is kept as it is, so its branches still count', () => {
    expect(fp(objectWith({ anyOf: [{ type: 'string' }, { type: 'number' }] }))).not.toBe(fp(objectWith({ anyOf: [{ type: 'string' }, { type: 'boolean' }] })));
    expect(fp(objectWith({ anyOf: [null, { type: 'null' }] }))).not.toBe(fp(objectWith({ anyOf: [{ type: 'null' }] })));
  });
});
