import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  InvalidToolInputError,
  RunContext,
  ToolCallError,
  UserError,
  defaultToolErrorFunction,
  run,
  setSensitiveDataLoggingEnabled,
  tool,
  type FunctionTool,
  type StandardSchemaLike,
  type ToolCallDetails,
  type ToolErrorFunction,
} from '../src/index.js';
import { resultText } from './helpers.js';

const details = (args = '{}'): ToolCallDetails => ({
  toolCall: functionCall('t', args),
  signal: new AbortController().signal,
  emit: async () => undefined,
});

const invoke = (t: FunctionTool, args: string) => t.invoke(new RunContext(), args, details(args));

describe('tool() parameters → strict JSON schema', () => {
  const weather = tool({
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: z.object({
      city: z.string(),
      unit: z.enum(['c', 'f']).optional(),
      days: z.number().int().optional(),
      options: z.object({ detailed: z.boolean().optional() }).optional(),
    }),
    execute: (input) => input,
  });

  it('makes every property required, optional ones nullable, and closes objects', () => {
    expect(weather.type).toBe('function');
    expect(weather.strict).toBe(true);
    const params = weather.parameters;
    expect(params.type).toBe('object');
    expect(params.additionalProperties).toBe(false);
    expect(params.required).toEqual(['city', 'unit', 'days', 'options']);
    // Draft 7 with its $schema, and anyOf for optional fields: what the reference sends.
    expect(params.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const props = params.properties as Record<string, Record<string, unknown>>;
    expect(props.city).toEqual({ type: 'string' });
    // A schema with optional fields has no Structured Outputs form, so it is offered in the plain
    // form the reference falls back to: structure only (an integer is a number, bounds left out).
    expect(props.days!.anyOf).toEqual([{ type: 'number' }, { type: 'null' }]);
    const options = (props.options!.anyOf as Array<Record<string, unknown>>)[0]!;
    expect(props.options!.anyOf).toEqual([options, { type: 'null' }]);
    expect(options.type).toBe('object');
    expect(options.additionalProperties).toBe(false);
    expect(options.required).toEqual(['detailed']);
    expect((options.properties as Record<string, Record<string, unknown>>).detailed).toEqual({ anyOf: [{ type: 'boolean' }, { type: 'null' }] });
  });

  it('lets an optional enum be null (a null branch beside the enum, as the reference encodes it)', () => {
    const unit = (weather.parameters.properties as Record<string, { anyOf: Array<{ type: unknown; enum?: unknown[] }> }>).unit!;
    expect(unit.anyOf[1]).toEqual({ type: 'null' });
    expect(unit.anyOf[0]!.enum).toEqual(expect.arrayContaining(['c', 'f']));
    const literal = tool({ name: 'l', description: '', parameters: z.object({ mode: z.literal('fast').optional() }), execute: (i) => i });
    expect((literal.parameters.properties as Record<string, unknown>).mode).toEqual({ anyOf: [{ type: 'string', const: 'fast' }, { type: 'null' }] });
  });

  it('strips the nulls the model sends for optional fields (top level and nested) before validating', async () => {
    const args = JSON.stringify({ city: 'Oslo', unit: null, days: null, options: { detailed: null } });
    await expect(invoke(weather, args)).resolves.toEqual({ city: 'Oslo', options: {} });
    const withValues = JSON.stringify({ city: 'Oslo', unit: 'c', days: 3, options: null });
    await expect(invoke(weather, withValues)).resolves.toEqual({ city: 'Oslo', unit: 'c', days: 3 });
  });

  it('keeps a null the schema itself allows (a required nullable field)', async () => {
    const t = tool({ name: 'n', description: '', parameters: z.object({ note: z.string().nullable() }), execute: (input) => input });
    expect(t.parameters.required).toEqual(['note']);
    await expect(invoke(t, '{"note":null}')).resolves.toEqual({ note: null });
  });

  it('with strict: false keeps the schema as written', () => {
    const loose = tool({
      name: 'loose',
      description: '',
      strict: false,
      parameters: z.object({ a: z.string(), b: z.string().optional() }),
      execute: () => 'ok',
    });
    expect(loose.strict).toBe(false);
    expect(loose.parameters.required).toEqual(['a']);
    expect((loose.parameters.properties as Record<string, { type: unknown }>).b!.type).toBe('string');
  });

  it('accepts a plain JSON object schema and makes it strict', async () => {
    const t = tool({
      name: 'json_schema',
      description: '',
      parameters: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'number' } }, required: ['q'] },
      errorFunction: null,
      execute: (input) => input,
    });
    expect(t.parameters).toEqual({
      type: 'object',
      properties: { q: { type: 'string' }, n: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
      required: ['q', 'n'],
      additionalProperties: false,
    });
    await expect(invoke(t, '{"q":"x"}')).resolves.toEqual({ q: 'x' });
    await expect(invoke(t, '[1]')).rejects.toBeInstanceOf(InvalidToolInputError);
  });

  it('offers a record as an open object (as the reference does) and a schema strict mode cannot keep as a UserError naming the keyword', () => {
    const rec = tool({ name: 'rec', description: '', parameters: z.object({ m: z.record(z.string(), z.string()) }), execute: () => 1 });
    expect((rec.parameters.properties as Record<string, unknown>).m).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
    const not = { type: 'object', properties: { v: { not: { type: 'null' } } }, required: [], additionalProperties: false } as const;
    expect(() => tool({ name: 'neg', description: '', parameters: not as never, execute: () => 1 })).toThrow(/tool "neg" parameters.*unsupported keyword `not`/);
    expect(tool({ name: 'neg', description: '', parameters: not as never, strict: false, execute: () => 1 }).parameters).toBe(not);
  });

  it('keeps a Structured Outputs schema as zod writes it: nullable as a type list, a defaulted field required, a discriminated union as anyOf', () => {
    const t = tool({
      name: 'shapes',
      description: '',
      parameters: z.object({
        note: z.string().nullable(),
        days: z.number().default(3),
        shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })]),
      }),
      execute: (input) => input,
    });
    const props = t.parameters.properties as Record<string, Record<string, unknown>>;
    expect(props.note).toEqual({ type: ['string', 'null'] });
    expect(props.days).toEqual({ default: 3, type: 'number' });
    expect(props.shape!.anyOf).toHaveLength(2);
    expect(props.shape!.oneOf).toBeUndefined();
    expect(t.parameters.required).toEqual(['note', 'days', 'shape']);
  });

  it.each([
    ['a non-object schema', z.string(), /must describe an object/],
    ['a Standard Schema without JSON Schema', { '~standard': { version: 1, vendor: 'acme', validate: (v: unknown) => ({ value: v }) } }, /vendor "acme"/],
    ['something that is not a schema', 42, /got number/],
  ])('rejects %s with a UserError', (_label, parameters, message) => {
    const make = () => tool({ name: 'bad', description: '', parameters: parameters as never, execute: () => 1 });
    expect(make).toThrow(UserError);
    expect(make).toThrow(message);
  });
});

describe('tool() accepts schemas without instanceof checks', () => {
  afterEach(() => setSensitiveDataLoggingEnabled(false));

  it('works with a schema from another copy of zod (the CommonJS build)', async () => {
    const require = createRequire(import.meta.url);
    const otherZod = (require('zod') as { z: typeof z }).z;
    expect(otherZod.object).not.toBe(z.object); // really another copy
    const t = tool({
      name: 'other_zod',
      description: '',
      parameters: otherZod.object({ n: otherZod.number(), label: otherZod.string().optional() }),
      errorFunction: null,
      execute: ({ n, label }) => `${n * 2}:${label ?? '-'}`,
    });
    expect(t.parameters.required).toEqual(['n', 'label']);
    await expect(invoke(t, '{"n":21,"label":null}')).resolves.toBe('42:-');
    await expect(invoke(t, '{"n":"x","label":null}')).rejects.toThrow('Invalid JSON input for tool');
    setSensitiveDataLoggingEnabled(true);
    await expect(invoke(t, '{"n":"x","label":null}')).rejects.toThrow(/n:/);
  });

  it('works with a hand-written Standard Schema object that can describe itself as JSON Schema', async () => {
    const calls: unknown[] = [];
    const schema: StandardSchemaLike<{ word: string }> = {
      '~standard': {
        version: 1,
        vendor: 'handmade',
        validate: (value) => {
          calls.push(value);
          const word = (value as { word?: unknown } | null)?.word;
          return typeof word === 'string' ? { value: { word: word.toUpperCase() } } : { issues: [{ message: 'word must be a string', path: ['word'] }] };
        },
        jsonSchema: { input: () => ({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'] }) },
      },
    };
    const t = tool({ name: 'shout', description: '', parameters: schema, errorFunction: null, execute: ({ word }) => `${word}!` });
    expect(t.parameters).toEqual({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'], additionalProperties: false });
    await expect(invoke(t, '{"word":"hey"}')).resolves.toBe('HEY!');
    setSensitiveDataLoggingEnabled(true);
    await expect(invoke(t, '{"word":1}')).rejects.toThrow('Invalid input for tool "shout": word: word must be a string');
    expect(calls).toEqual([{ word: 'hey' }, { word: 1 }]);
  });
});

describe('tool() invoke', () => {
  const executed: unknown[] = [];
  const addWith = (errorFunction: ToolErrorFunction | null | undefined) =>
    tool({
      name: 'add',
      description: 'Adds',
      parameters: z.object({ a: z.number(), b: z.number() }),
      ...(errorFunction !== undefined ? { errorFunction } : {}),
      execute: ({ a, b }) => (executed.push({ a, b }), a + b),
    });
  const invalidArguments = [
    ['malformed JSON', '{"a":1,', /Invalid JSON input for tool "add"/],
    ['an empty string (not JSON, as on the reference)', '', /Invalid JSON input for tool "add"/],
    ['blank arguments', '  ', /Invalid JSON input for tool "add"/],
    ['arguments failing the schema', '{"a":1,"b":"two"}', /Invalid input for tool "add": b:/],
    ['a missing field', '{"a":1}', /Invalid input for tool "add": b:/],
  ] as const;

  describe('while tool data may be logged', () => {
    beforeEach(() => setSensitiveDataLoggingEnabled(true));
    afterEach(() => setSensitiveDataLoggingEnabled(false));

    it.each(invalidArguments)('with errorFunction: null, raises InvalidToolInputError for %s without running execute, saying what was wrong', async (_label, args, message) => {
      executed.length = 0;
      const error = await invoke(addWith(null), args).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidToolInputError);
      expect((error as Error).message).toMatch(message);
      expect((error as InvalidToolInputError).originalError).toBeInstanceOf(Error);
      expect((error as InvalidToolInputError).toolInvocation).toMatchObject({ input: args, details: { toolCall: { arguments: args } } });
      expect(executed).toEqual([]);
    });

    it.each(invalidArguments)('hands %s to a custom error function as InvalidToolInputError, with the call details', async (_label, args, message) => {
      const seen: Array<{ error: unknown; details: unknown }> = [];
      const given = details(args);
      const answer = await addWith((_context, error, callDetails) => (seen.push({ error, details: callDetails }), 'try again')).invoke(new RunContext(), args, given);
      expect(answer).toBe('try again');
      expect(seen).toHaveLength(1);
      expect(seen[0]!.error).toBeInstanceOf(InvalidToolInputError);
      expect((seen[0]!.error as Error).message).toMatch(message);
      expect(seen[0]!.details).toBe(given);
    });
  });

  describe('by default (tool data not logged): the arguments, which may hold a secret, stay out of the error', () => {
    const secretArguments = [
      ['malformed JSON', '{"a":"SECRET-1",'],
      ['arguments failing the schema', '{"a":1,"b":"SECRET-1"}'],
    ] as const;

    it.each(secretArguments)('with errorFunction: null, %s raise a bare InvalidToolInputError', async (_label, args) => {
      const error = await invoke(addWith(null), args).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidToolInputError);
      expect(error).toMatchObject({ message: 'Invalid JSON input for tool', originalError: undefined, toolInvocation: undefined });
      expect(JSON.stringify(error)).not.toContain('SECRET');
      expect(String((error as Error).stack)).not.toContain('SECRET');
    });

    it.each(secretArguments)('a custom error function gets a bare error for %s and no details', async (_label, args) => {
      const seen: Array<{ error: unknown; details: unknown }> = [];
      const answer = await addWith((_context, error, callDetails) => (seen.push({ error, details: callDetails }), 'try again')).invoke(new RunContext(), args, details(args));
      expect(answer).toBe('try again');
      expect(seen[0]!.error).toMatchObject({ message: 'Invalid JSON input for tool', originalError: undefined, toolInvocation: undefined });
      expect(seen[0]!.details).toBeUndefined();
    });

    it('an error function that throws on invalid arguments: the bare input error is raised, not what it threw', async () => {
      const error = await addWith(() => {
        throw new Error('callback saw SECRET-1');
      })
        .invoke(new RunContext(), '{"a":"SECRET-1"}', details('{"a":"SECRET-1"}'))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidToolInputError);
      expect(error).toMatchObject({ message: 'Invalid JSON input for tool', originalError: undefined });
    });

    it('an error function during which tool data stopped being logged: its answer, which may quote the arguments, is dropped for the bare error', async () => {
      setSensitiveDataLoggingEnabled(true);
      try {
        const error = await addWith((_context, _error, callDetails) => {
          setSensitiveDataLoggingEnabled(false);
          return callDetails?.toolCall?.arguments ?? 'unexpected';
        })
          .invoke(new RunContext(), '{"a":"SECRET-1"}', details('{"a":"SECRET-1"}'))
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(InvalidToolInputError);
        expect(error).toMatchObject({ message: 'Invalid JSON input for tool', originalError: undefined, toolInvocation: undefined });
      } finally {
        setSensitiveDataLoggingEnabled(false);
      }
    });

    it('an error function whose own failure is not about the arguments keeps its error while tool data may be logged', async () => {
      setSensitiveDataLoggingEnabled(true);
      try {
        const thrown = new Error('callback failed');
        const error = await addWith(() => {
          throw thrown;
        })
          .invoke(new RunContext(), '{"a":1}', details('{"a":1}'))
          .catch((e: unknown) => e);
        expect(error).toBe(thrown);
      } finally {
        setSensitiveDataLoggingEnabled(false);
      }
    });
  });

  it('passes the run context and call details to execute', async () => {
    let seen: { context: unknown; callId: string } | undefined;
    const t = tool({
      name: 'who',
      description: '',
      parameters: z.object({}),
      execute: (_input, runContext, d) => {
        seen = { context: runContext.context, callId: d.toolCall.callId };
        return 'ok';
      },
    });
    const d = details();
    await t.invoke(new RunContext({ user: 'ada' }), '{}', d);
    expect(seen).toEqual({ context: { user: 'ada' }, callId: d.toolCall.callId });
  });

  it.each([
    ['the default error function', undefined, 'An error occurred while running the tool. Please try again.'],
    ['a custom error function', (_ctx: unknown, e: unknown) => `custom: ${(e as Error).message}`, 'custom: boom'],
  ])('turns a thrown error into output through %s', async (_label, errorFunction, expected) => {
    const t = tool({
      name: 'fails',
      description: '',
      parameters: z.object({}),
      ...(errorFunction ? { errorFunction } : {}),
      execute: () => {
        throw new Error('boom');
      },
    });
    await expect(invoke(t, '{}')).resolves.toBe(expected);
  });

  it('rethrows with errorFunction: null', async () => {
    const t = tool({
      name: 'fails',
      description: '',
      parameters: z.object({}),
      errorFunction: null,
      execute: () => {
        throw new Error('boom');
      },
    });
    await expect(invoke(t, '{}')).rejects.toThrow('boom');
  });

  it('derives the name from execute and replaces characters a model cannot call', () => {
    const named = tool({ description: '', parameters: z.object({}), execute: function lookUp() {} });
    expect(named.name).toBe('lookUp');
    expect(tool({ name: 'get weather.v2', description: '', parameters: z.object({}), execute: () => 1 }).name).toBe('get_weather_v2');
  });

  it('evaluates needsApproval and isEnabled (booleans and functions)', async () => {
    const ctx = new RunContext({ limit: 100 });
    const agent = new Agent({ name: 'A' });
    const t = tool({
      name: 'pay',
      description: '',
      parameters: z.object({ amount: z.number() }),
      needsApproval: async (runContext, input) => input.amount > (runContext.context as { limit: number }).limit,
      isEnabled: ({ runContext }) => (runContext.context as { limit: number }).limit > 0,
      execute: () => 'paid',
    });
    await expect(t.needsApproval(ctx, { amount: 500 })).resolves.toBe(true);
    await expect(t.needsApproval(ctx, { amount: 5 })).resolves.toBe(false);
    await expect(t.isEnabled(ctx, agent)).resolves.toBe(true);
    const plain = tool({ name: 'p', description: '', parameters: z.object({}), needsApproval: true, isEnabled: false, execute: () => 1 });
    await expect(plain.needsApproval(ctx, {})).resolves.toBe(true);
    await expect(plain.isEnabled(ctx, agent)).resolves.toBe(false);
  });

  it('exposes the default error function', () => {
    expect(defaultToolErrorFunction(new RunContext(), 'plain')).toBe('An error occurred while running the tool. Please try again.');
  });
});

describe('tools in a run', () => {
  it('returns a thrown error to the model through the default error function, and the model recovers', async () => {
    const flaky = tool({
      name: 'flaky',
      description: '',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full');
      },
    });
    const model = new ScriptedModel([[functionCall('flaky', {}, { callId: 'c1' })], [assistantMessage('sorry, it failed')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [flaky] }), 'go');
    expect(result.finalOutput).toBe('sorry, it failed');
    expect(resultText(model.calls[1], 'c1')).toBe('An error occurred while running the tool. Please try again.');
  });

  it('fails the run with ToolCallError when errorFunction is null', async () => {
    const cause = new Error('disk full');
    const strict = tool({
      name: 'strict_tool',
      description: '',
      parameters: z.object({}),
      errorFunction: null,
      execute: () => {
        throw cause;
      },
    });
    const model = new ScriptedModel([[functionCall('strict_tool', {})], [assistantMessage('never')]]);
    const error = await run(new Agent({ name: 'A', model, tools: [strict] }), 'go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).error).toBe(cause);
    expect((error as ToolCallError).message).toContain('disk full');
    expect((error as ToolCallError).state?.currentTurn).toBe(1);
    expect(model.calls).toHaveLength(1);
  });

  it('does not offer a disabled tool to the model', async () => {
    const hidden = tool({ name: 'hidden', description: '', parameters: z.object({}), isEnabled: () => false, execute: () => 1 });
    const shown = tool({ name: 'shown', description: 'd', parameters: z.object({}), execute: () => 1 });
    const model = new ScriptedModel([[assistantMessage('hi')]]);
    await run(new Agent({ name: 'A', model, tools: [hidden, shown] }), 'go');
    expect(model.calls[0]!.request.tools).toEqual([
      { type: 'function', name: 'shown', description: 'd', parameters: shown.parameters, strict: true },
    ]);
  });

  it('offers tools by their isEnabled: a fixed false hides, and one replaced after the tool was made is asked each turn', async () => {
    const off = tool({ name: 'off', description: '', parameters: z.object({}), isEnabled: false, execute: () => 1 });
    const on = tool({ name: 'on', description: '', parameters: z.object({}), execute: () => 1 });
    const switched = tool({ name: 'switched', description: '', parameters: z.object({}), isEnabled: false, execute: () => 1 });
    const asked: number[] = [];
    switched.isEnabled = async () => (asked.push(asked.length), asked.length > 1);
    const model = new ScriptedModel([[functionCall('on', {}, { callId: 'c1' })], [assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model, tools: [off, on, switched] }), 'go');
    expect(model.calls.map((call) => call.request.tools.map((t) => t.name))).toEqual([['on'], ['on', 'switched']]);
    expect(asked).toHaveLength(2);
  });
});
