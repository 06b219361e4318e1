import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as zod3 from 'zod/v3';
import { RunContext, UserError, tool, type FunctionTool } from '../src/index.js';

const DEEP = 'JSON schema is too deeply nested to process safely. Simplify or flatten the schema, or disable strict mode.';

const define = (parameters: unknown, execute: (input: any) => unknown = () => 'ok'): FunctionTool =>
  tool({ name: 'joined', description: 'Joins two objects.', parameters: parameters as any, execute: execute as any });

const refusal = (parameters: unknown): string => {
  try {
    define(parameters);
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('expected the tool to be refused');
};

const pair = <A, B>(left: A, right: B) => ({ left, right });

describe('strict tools with zod intersections', () => {
  it.each([
    ['zod 4', pair(z, z)],
    ['zod 3', pair(zod3, zod3)],
  ] as const)('offers a %s object intersection as one closed object and drops the nulls strict mode added', async (_, { left: zz }) => {
    const execute = vi.fn((_input: unknown) => 'ok');
    const t = define(
      (zz as typeof z).object({ both: (zz as typeof z).intersection((zz as typeof z).object({ maybe: (zz as typeof z).string().optional() }), (zz as typeof z).object({ count: (zz as typeof z).number() })) }),
      execute,
    );
    expect(t.parameters.properties.both).toEqual({
      type: 'object',
      properties: { maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] }, count: { type: 'number' } },
      required: ['maybe', 'count'],
      additionalProperties: false,
    });
    await t.invoke(new RunContext(), JSON.stringify({ both: { maybe: null, count: 2 } }));
    expect(execute.mock.calls[0]![0]).toEqual({ both: { count: 2 } });
  });

  it('joins the branch descriptions, and keeps the intersection’s own description over them', () => {
    const joined = define(z.object({ both: z.intersection(z.object({ a: z.string() }).describe('A side.'), z.object({ b: z.string() }).describe('B side.')) }));
    expect((joined.parameters as any).properties.both.description).toBe('A side.\n\nB side.');
    const wrapped = define(zod3.object({ list: zod3.array(zod3.intersection(zod3.object({ a: zod3.string() }).describe('A.'), zod3.object({ b: zod3.string() })).describe('Whole.')) }));
    expect((wrapped.parameters as any).properties.list.items.description).toBe('Whole.');
  });

  it('offers an intersection of one unconstrained primitive with itself as that primitive', () => {
    expect(define(z.object({ s: z.intersection(z.string(), z.string()) })).parameters.properties.s).toEqual({ type: 'string' });
    expect(define(zod3.object({ s: zod3.intersection(zod3.string(), zod3.string()) })).parameters.properties.s).toEqual({ type: 'string' });
  });

  it.each([
    ['a zod 4 passthrough branch', z.object({ v: z.intersection(z.object({ a: z.string() }).passthrough(), z.object({ b: z.string() })) })],
    ['a zod 4 catchall branch behind a default', z.object({ v: z.intersection(z.object({ a: z.string() }).catchall(z.string()).default({ a: 'x' }), z.object({ b: z.string() })) })],
    ['a zod 3 passthrough branch behind readonly', zod3.object({ v: zod3.intersection(zod3.object({ a: zod3.string() }).passthrough().readonly(), zod3.object({ b: zod3.string() })) })],
    ['a zod 3 catchall branch', zod3.object({ v: zod3.intersection(zod3.object({ a: zod3.string() }).catchall(zod3.string()), zod3.object({ b: zod3.string() })) })],
    ['zod 3 strict branches (each refuses the other side’s keys)', zod3.object({ v: zod3.intersection(zod3.object({ a: zod3.string() }).strict(), zod3.object({ b: zod3.string() }).strict()) })],
    ['a property on both sides', z.object({ v: z.intersection(z.object({ same: z.string() }), z.object({ same: z.number() })) })],
  ])('refuses %s', (_, parameters) => {
    const message = refusal(parameters);
    expect(message).toContain('tool "joined" parameters');
    expect(message).toContain('compatible Zod object intersections with distinct properties and closed object branches');
  });

  const both = <T>(zz: T) => zz;
  it.each([
    ['a zod 4 string check elsewhere', z.object({ v: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })), name: z.string().min(3) })],
    ['a zod 3 string check elsewhere', zod3.object({ v: zod3.intersection(zod3.object({ a: zod3.string() }), zod3.object({ b: zod3.number() })), name: zod3.string().min(3) })],
    ['a zod 4 string format elsewhere', z.object({ v: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })), email: z.email() })],
    ['an open zod 4 root', z.object({ v: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })) }).passthrough()],
    ['a refined zod 4 root', z.object({ v: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })) }).refine(() => true)],
    ['a zod 3 root with a catchall', zod3.object({ v: zod3.intersection(zod3.object({ a: zod3.string() }), zod3.object({ b: zod3.number() })) }).catchall(zod3.string())],
    ['a transform elsewhere', both(z).object({ v: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })), up: z.string().transform((s) => s.toUpperCase()) })],
  ])('refuses an object intersection that would lose constraints: %s', (_, parameters) => {
    expect(refusal(parameters)).toContain('without losing constraints');
  });

  it('keeps a schema without object intersections as zod describes it (constraints included)', () => {
    const t = define(z.object({ s: z.intersection(z.string(), z.string()), name: z.string().min(3) }));
    expect(t.parameters.properties.name).toEqual({ type: 'string', minLength: 3 });
  });

  it('leaves non-strict tools as zod describes them', () => {
    const t = tool({
      name: 'loose',
      description: 'Not strict.',
      strict: false,
      parameters: z.object({ v: z.intersection(z.object({ a: z.string() }).passthrough(), z.object({ b: z.string() })) }),
      execute: () => 'ok',
    });
    expect(t.strict).toBe(false);
  });
});

describe('strict schemas nested too deeply', () => {
  const nested = (depth: number) => {
    const root: Record<string, any> = { type: 'object', properties: {}, required: [] };
    let node = root;
    for (let i = 0; i < depth; i += 1) node = node.properties.child = { type: 'object', properties: {}, required: [] };
    return root;
  };
  // Two chains of 60 references, the second ending in the first: short as written, 120 deep when followed.
  const chained = () => {
    const $defs: Record<string, unknown> = { leaf: { type: 'string' } };
    const properties: Record<string, unknown> = {};
    let previous = '#/$defs/leaf';
    for (const chain of [0, 1]) {
      for (let i = 0; i < 60; i += 1) $defs[`c${chain}_${i}`] = { $ref: i < 59 ? `#/$defs/c${chain}_${i + 1}` : previous };
      previous = `#/$defs/c${chain}_0`;
      properties[`start${chain}`] = { $ref: previous };
    }
    return { type: 'object', properties, required: ['start0', 'start1'], $defs };
  };

  it.each([
    ['nesting', () => nested(1000)],
    ['reference chains', chained],
  ])('are refused with a UserError (not a stack overflow) through %s, unchanged, and kept as written when not strict', (_, build) => {
    const parameters = build();
    expect(refusal(parameters)).toBe(DEEP);
    expect(parameters).not.toHaveProperty('additionalProperties');
    const loose = tool({ name: 'loose', description: 'Not strict.', strict: false, parameters: parameters as any, execute: () => 'ok' });
    expect(loose.parameters).toBe(parameters);
  });

  it('follows a recursive definition once per path instead of counting it as depth', () => {
    const recursive = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
      $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['children'] } },
    };
    expect((define(recursive).parameters as any).$defs.node.properties.children.items).toEqual({ $ref: '#/$defs/node' });
    const wide = { type: 'object', properties: {}, required: [], $defs: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`n${i}`, { $ref: '#' }])) };
    expect(() => define(wide)).not.toThrow();
  });

  it('accepts a schema within the limit', () => {
    expect(() => define(nested(40))).not.toThrow();
  });
});
