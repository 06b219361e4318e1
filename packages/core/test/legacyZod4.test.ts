import { describe, expect, it } from 'vitest';
import { z as z46 } from 'zod';
import { z as z41 } from 'zod-4-1';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunContext, run, tool } from '../src/index.js';

// zod 4.0 and 4.1 (the reference accepts `zod ^4.0.0`) have no Standard JSON Schema
// (`~standard.jsonSchema` came with 4.2): Baton describes their schemas with zod's own converter,
// and they must reach the model exactly as the same schema written with a current zod does.

type Zod = typeof z46;
const shapes: Array<[string, (z: Zod) => unknown]> = [
  ['strings and numbers', (z) => z.object({ city: z.string(), days: z.number().int() })],
  ['descriptions on fields and on the object', (z) => z.object({ city: z.string().describe('The city'), unit: z.enum(['c', 'f']).describe('Unit') }).describe('A forecast request')],
  ['meta with a title and examples', (z) => z.object({ q: z.string().meta({ title: 'Query', examples: ['rain'] }) })],
  ['optional and nullable fields', (z) => z.object({ a: z.string().optional(), b: z.number().nullable(), c: z.boolean().nullish() })],
  ['a default', (z) => z.object({ limit: z.number().default(10) })],
  ['nested objects and arrays', (z) => z.object({ items: z.array(z.object({ id: z.string(), tags: z.array(z.string()) })) })],
  ['a discriminated union', (z) => z.object({ shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), r: z.number() }), z.object({ kind: z.literal('square'), side: z.number() })]) })],
  ['a plain union and literals', (z) => z.object({ v: z.union([z.string(), z.number()]), mode: z.literal('fast') })],
];

describe('tool() parameters from a zod 4 release before 4.2', () => {
  it('the schema really lacks Standard JSON Schema', () => {
    const schema = z41.object({ a: z41.string() }) as unknown as { '~standard': { jsonSchema?: unknown; vendor: string } };
    expect(schema['~standard'].vendor).toBe('zod');
    expect(schema['~standard'].jsonSchema).toBeUndefined();
  });

  it.each(shapes)('%s: the same JSON schema as with zod 4.6, strict and not', (_label, shape) => {
    for (const strict of [true, false]) {
      const legacy = tool({ name: 't', description: 'd', parameters: shape(z41 as unknown as Zod) as never, strict, execute: () => 'ok' });
      const current = tool({ name: 't', description: 'd', parameters: shape(z46) as never, strict, execute: () => 'ok' });
      expect(legacy.parameters).toEqual(current.parameters);
      expect(JSON.stringify(legacy.parameters)).toBe(JSON.stringify(current.parameters));
      expect(legacy.strict).toBe(current.strict);
    }
  });

  it('validates with the schema itself: a bad argument is refused, a good one reaches execute parsed', async () => {
    const seen: unknown[] = [];
    const forecast = tool({
      name: 'forecast',
      description: 'd',
      parameters: z41.object({ city: z41.string(), days: z41.number().int().default(3) }),
      errorFunction: null,
      execute: (input) => (seen.push(input), 'sunny'),
    });
    const model = new ScriptedModel([[functionCall('forecast', { city: 'Oslo', days: 2 })], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [forecast] }), 'go');
    expect(result.finalOutput).toBe('done');
    expect(seen).toEqual([{ city: 'Oslo', days: 2 }]);
    await expect(forecast.invoke(new RunContext(), '{"city":1,"days":2}')).rejects.toThrow('Invalid JSON input for tool');
    expect(seen).toHaveLength(1);
  });
});

describe('outputType from a zod 4 release before 4.2', () => {
  it('is offered as the same JSON schema and parses the final output', async () => {
    const legacy = new Agent({ name: 'A', outputType: z41.object({ answer: z41.string().describe('The answer'), score: z41.number() }) });
    const current = new Agent({ name: 'A', outputType: z46.object({ answer: z46.string().describe('The answer'), score: z46.number() }) });
    expect(legacy.getSerializedOutputType()).toEqual(current.getSerializedOutputType());
    const model = new ScriptedModel([[assistantMessage('{"answer":"yes","score":2}')]]);
    const result = await run(new Agent({ name: 'B', model, outputType: z41.object({ answer: z41.string(), score: z41.number() }) }), 'go');
    expect(result.finalOutput).toEqual({ answer: 'yes', score: 2 });
  });
});
