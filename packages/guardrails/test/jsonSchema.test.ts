import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, OutputGuardrailTripwireTriggered, UserError, run } from '@baton/core';
import { jsonSchemaCheck, type JsonSchema } from '../src/index.js';
import { rejectionOf } from './helpers.js';

const schema: JsonSchema = {
  type: 'object',
  description: 'a user',
  required: ['name', 'role'],
  properties: {
    name: { type: 'string' },
    age: { type: 'integer' },
    role: { enum: ['admin', 'user'] },
    tags: { type: 'array', items: { type: 'string' } },
    nickname: { type: ['string', 'null'] },
    kind: { const: 'person' },
  },
  additionalProperties: false,
};
const inspect = (value: unknown, check = jsonSchemaCheck(schema)) => check.inspect({ source: 'output', value, text: JSON.stringify(value) });

describe('jsonSchemaCheck with a plain JSON schema', () => {
  it('accepts a matching value', async () => {
    const verdict = await inspect({ name: 'Ada', age: 36, role: 'admin', tags: ['x'], nickname: null, kind: 'person' });
    expect(verdict).toEqual({ tripped: false, info: { valid: true, issues: [] } });
  });

  it.each([
    ['a missing required property', { role: 'user' }, [{ path: '/name', message: 'is required' }]],
    ['a wrong type', { name: 1, role: 'user' }, [{ path: '/name', message: 'expected string, got integer' }]],
    ['a non-integer', { name: 'a', role: 'user', age: 1.5 }, [{ path: '/age', message: 'expected integer, got number' }]],
    ['a value outside the enum', { name: 'a', role: 'root' }, [{ path: '/role', message: 'expected one of "admin", "user"' }]],
    ['a bad array item', { name: 'a', role: 'user', tags: ['ok', 2] }, [{ path: '/tags/1', message: 'expected string, got integer' }]],
    ['an extra property', { name: 'a', role: 'user', extra: true }, [{ path: '/extra', message: 'is not allowed' }]],
    ['a wrong const', { name: 'a', role: 'user', kind: 'robot' }, [{ path: '/kind', message: 'expected "person"' }]],
    ['a non-object', [1], [{ path: '', message: 'expected object, got array' }]],
  ])('reports %s', async (_, value, issues) => {
    const verdict = await inspect(value);
    expect(verdict.tripped).toBe(true);
    expect(verdict.info).toEqual({ valid: false, issues });
  });

  it('parses strings as JSON (a text agent\'s output) unless told not to', async () => {
    expect((await inspect('{"name":"a","role":"user"}')).tripped).toBe(false);
    const broken = await inspect('{"name":');
    expect(broken.tripped).toBe(true);
    expect(broken.info.issues[0]!.message).toMatch(/^not valid JSON/);
    const raw = jsonSchemaCheck({ type: 'string' }, { parseStrings: false });
    expect((await inspect('{"a":1}', raw)).tripped).toBe(false);
  });

  it('reports text that is not JSON as one issue at the root', async () => {
    const broken = await inspect('{"name":');
    expect(broken).toEqual({ tripped: true, info: { valid: false, issues: [{ path: '', message: expect.stringMatching(/^not valid JSON \(.+\)$/) }] } });
  });

  it('tells the model its default message (or the one given)', () => {
    expect(jsonSchemaCheck(schema).rejectMessage).toBe('The value does not match the expected schema.');
    expect(jsonSchemaCheck(schema, { rejectMessage: 'Bad shape.' }).rejectMessage).toBe('Bad shape.');
    expect(jsonSchemaCheck(schema).name).toBe('json_schema');
  });

  it('says what is wrong with a bad parseStrings option or a schema that is not one', () => {
    expect(() => jsonSchemaCheck(schema, { parseStrings: 'no' as never })).toThrow('jsonSchemaCheck: `parseStrings` must be a boolean, got string.');
    for (const bad of [null, 'a schema', 42]) {
      expect(() => jsonSchemaCheck(bad as never)).toThrow(UserError);
      expect(() => jsonSchemaCheck(bad as never)).toThrow('jsonSchemaCheck: the schema at # must be an object.');
    }
  });

  it('only a { type: "json_schema", schema } object is a wrapper: a plain schema with a `schema` keyword is refused', () => {
    expect(() => jsonSchemaCheck({ schema: { type: 'object' } } as never)).toThrow(/unsupported JSON Schema keyword\(s\) at #: schema\./);
    expect(() => jsonSchemaCheck({ type: 'object', schema: { type: 'object' } } as never)).toThrow(/unsupported JSON Schema keyword\(s\) at #: schema\./);
  });

  it('a wrapper without its schema, or a function dressed as a wrapper, is refused saying what is wrong', () => {
    expect(() => jsonSchemaCheck({ type: 'json_schema' } as never)).toThrow(/jsonSchemaCheck: .*"json_schema"/);
    expect(() => jsonSchemaCheck(Object.assign(() => undefined, { type: 'json_schema', schema: { type: 'object' } }) as never)).toThrow(
      'jsonSchemaCheck: the schema at # must be an object.',
    );
  });

  it('accepts a { type: "json_schema", schema } wrapper', async () => {
    const wrapped = jsonSchemaCheck({ type: 'json_schema', name: 'x', strict: true, schema: { type: 'object', required: ['a'] } });
    expect((await inspect({}, wrapped)).info.issues).toEqual([{ path: '/a', message: 'is required' }]);
  });

  it('refuses keywords it does not implement, saying which and where, at construction', () => {
    const attempt = () => jsonSchemaCheck({ type: 'object', properties: { name: { type: 'string', minLength: 1, pattern: '^a' } } });
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow('jsonSchemaCheck: unsupported JSON Schema keyword(s) at #/properties/name: minLength, pattern.');
    expect(() => jsonSchemaCheck({ anyOf: [] })).toThrow(/unsupported JSON Schema keyword\(s\) at #: anyOf/);
    expect(() => jsonSchemaCheck({ type: 'text' })).toThrow(/unknown type "text" at #\/type/);
    expect(() => jsonSchemaCheck({ required: 'name' })).toThrow(/`required` at # must be an array of strings/);
  });
});

describe('jsonSchemaCheck with a Standard Schema (zod)', () => {
  const Reply = z.object({ answer: z.string().min(1), sources: z.array(z.string().url()) });

  it('validates with ~standard.validate and reports issues with JSON pointer paths', async () => {
    const check = jsonSchemaCheck(Reply);
    expect((await inspect({ answer: 'yes', sources: ['https://example.com'] }, check)).tripped).toBe(false);
    const verdict = await inspect({ answer: '', sources: ['not a url'] }, check);
    expect(verdict.tripped).toBe(true);
    expect(verdict.info.issues.map((i) => i.path)).toEqual(['/answer', '/sources/0']);
  });

  /** A hand-written Standard Schema (the interface zod, valibot and ArkType implement) reporting fixed issues. */
  function standardSchema(issues: Array<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }>, callable = false) {
    const standard = { version: 1, vendor: 'test', validate: (value: unknown) => (issues.length ? { issues } : { value }) };
    const schema = callable ? Object.assign(() => undefined, { '~standard': standard }) : { '~standard': standard };
    return schema as never;
  }

  it('writes issue paths as JSON pointers, with path segments given as keys or as { key } objects, and no path as the root', async () => {
    const check = jsonSchemaCheck(
      standardSchema([
        { message: 'bad item', path: ['items', { key: 0 }, 'name'] },
        { message: 'bad root' },
        { message: 'also the root', path: [] },
      ]),
    );
    expect((await inspect({ items: [] }, check)).info.issues).toEqual([
      { path: '/items/0/name', message: 'bad item' },
      { path: '', message: 'bad root' },
      { path: '', message: 'also the root' },
    ]);
  });

  it('accepts a Standard Schema that is a function (a callable schema, as ArkType\'s)', async () => {
    expect((await inspect({ a: 1 }, jsonSchemaCheck(standardSchema([], true)))).tripped).toBe(false);
    expect((await inspect({ a: 1 }, jsonSchemaCheck(standardSchema([{ message: 'no', path: ['a'] }], true)))).info.issues).toEqual([{ path: '/a', message: 'no' }]);
  });

  it('as an output guardrail, checks a text agent\'s JSON answer', async () => {
    const agent = new Agent({
      name: 'A',
      model: new ScriptedModel([[assistantMessage('{"answer":"42","sources":[]}')], [assistantMessage('{"answer":42}')]]),
      outputGuardrails: [jsonSchemaCheck(Reply).outputGuardrail({ name: 'reply_shape' })],
    });
    expect((await run(agent, 'q')).finalOutput).toBe('{"answer":"42","sources":[]}');
    const error = await rejectionOf(run(agent, 'q'));
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(error.result.guardrail.name).toBe('reply_shape');
    expect(error.result.output.outputInfo.issues.map((i: { path: string }) => i.path)).toEqual(['/answer', '/sources']);
  });
});
