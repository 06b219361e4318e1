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
