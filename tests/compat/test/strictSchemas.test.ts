import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { FakeOpenAIServer, fakeText } from '@baton/testing';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

/**
 * The schema table: every schema shape below is offered to the model in each of the four places a
 * schema goes (an agent's outputType, a function tool's parameters, a handoff's inputType, an
 * agent tool's parameters), on both SDKs, through their OpenAI providers (the real `openai` client)
 * against the fake OpenAI server. The request bodies must be identical: the `strict` flag and the
 * JSON schema sent with it (how optional, nullable, defaulted, nested fields are written).
 */

type Json = Record<string, unknown>;

/** A Standard Schema (with Standard JSON Schema) that is not zod: describes itself with `json`, accepts what it is given. */
function standard(json: Json) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'table',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => structuredClone(json), output: () => structuredClone(json) },
    },
  };
}

const object = (properties: Json, required = Object.keys(properties)) => ({ type: 'object', properties, required, additionalProperties: false });

const shapes: ReadonlyArray<readonly [string, () => unknown]> = [
  ['zod 4: a plain object', () => z.object({ city: z.string(), days: z.number().int() })],
  ['zod 4: a nested object', () => z.object({ place: z.object({ city: z.string(), country: z.string() }), when: z.string() })],
  ['zod 4: an array of objects', () => z.object({ items: z.array(z.object({ sku: z.string(), qty: z.number() })) })],
  ['zod 4: an enum and a literal', () => z.object({ unit: z.enum(['c', 'f']), kind: z.literal('forecast') })],
  ['zod 4: a union', () => z.object({ value: z.union([z.string(), z.number()]) })],
  ['zod 4: a discriminated union', () => z.object({ shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), r: z.number() }), z.object({ kind: z.literal('square'), side: z.number() })]) })],
  ['zod 4: a nullable field', () => z.object({ city: z.string(), note: z.string().nullable() })],
  ['zod 4: a defaulted field', () => z.object({ city: z.string(), days: z.number().default(3) })],
  ['zod 4: an optional field', () => z.object({ city: z.string(), note: z.string().optional() })],
  ['zod 4: an optional nullable field', () => z.object({ city: z.string(), note: z.string().nullable().optional() })],
  ['zod 4: a record', () => z.object({ scores: z.record(z.string(), z.number()) })],
  ['zod 4: descriptions', () => z.object({ city: z.string().describe('The city'), days: z.number().describe('How many days') }).describe('A forecast request')],
  ['zod 4: an optional nested object', () => z.object({ filter: z.object({ tag: z.string() }).optional() })],
  ['zod 4: optional fields with descriptions, bounds and formats', () => z.object({ email: z.email().describe('Where to write').optional(), count: z.number().int().min(1).optional(), name: z.string().min(2) })],
  ['zod 4: a tuple', () => z.object({ point: z.tuple([z.number(), z.number()]) })],
  ['zod 4: an optional nullable object in an array', () => z.object({ rows: z.array(z.object({ id: z.string(), parent: z.object({ id: z.string() }).nullable().optional() })) })],
  ['zod 3: a plain object', () => z3.object({ city: z3.string(), days: z3.number() })],
  ['zod 3: nested, arrays and enums', () => z3.object({ place: z3.object({ city: z3.string() }), tags: z3.array(z3.enum(['a', 'b'])) })],
  ['zod 3: a nullable field', () => z3.object({ city: z3.string(), note: z3.string().nullable() })],
  ['zod 3: an optional field', () => z3.object({ city: z3.string(), note: z3.string().optional() })],
  ['zod 3: a record', () => z3.object({ scores: z3.record(z3.number()) })],
  ['Standard Schema: a plain object', () => standard(object({ city: { type: 'string' }, days: { type: 'number' } }))],
  ['Standard Schema: an optional field', () => standard(object({ city: { type: 'string' }, note: { type: 'string' } }, ['city']))],
  ['Standard Schema: a nullable field', () => standard(object({ city: { type: 'string' }, note: { type: ['string', 'null'] } }))],
  ['JSON schema: a plain object', () => object({ city: { type: 'string' }, days: { type: 'number' } })],
  ['JSON schema: nested and arrays', () => object({ place: object({ city: { type: 'string' } }), tags: { type: 'array', items: { type: 'string' } } })],
  ['JSON schema: an optional field', () => object({ city: { type: 'string' }, note: { type: 'string' } }, ['city'])],
  ['JSON schema: an optional nullable field with a description', () => object({ city: { type: 'string' }, note: { type: ['string', 'null'], description: 'A note' }, tag: { type: 'string', description: 'A tag' } }, ['city'])],
  ['JSON schema: a record', () => object({ scores: { type: 'object', additionalProperties: { type: 'number' } } })],
];

const isJsonSchema = (schema: unknown) => typeof schema === 'object' && schema !== null && !('~standard' in schema);

type Site = (under: SdkUnderTest, schema: unknown) => InstanceType<SdkUnderTest['sdk']['Agent']>;

const sites: ReadonlyArray<readonly [string, Site]> = [
  [
    'outputType',
    ({ sdk }, schema) =>
      new sdk.Agent({
        name: 'Forecaster',
        model: 'gpt-4.1',
        // A JSON schema output type is given in the reference's JsonSchemaDefinition form.
        outputType: (isJsonSchema(schema) ? { type: 'json_schema', name: 'forecast', strict: true, schema } : schema) as never,
      }),
  ],
  [
    'tool parameters',
    ({ sdk }, schema) =>
      new sdk.Agent({
        name: 'Forecaster',
        model: 'gpt-4.1',
        tools: [sdk.tool({ name: 'forecast', description: 'A forecast.', parameters: schema as never, execute: () => 'sunny' } as never)],
      }),
  ],
  [
    'handoff inputType',
    ({ sdk }, schema) => {
      const specialist = new sdk.Agent({ name: 'Specialist', model: 'gpt-4.1' });
      return new sdk.Agent({ name: 'Triage', model: 'gpt-4.1', handoffs: [sdk.handoff(specialist, { inputType: schema as never, onHandoff: () => {} })] });
    },
  ],
  [
    'asTool parameters',
    ({ sdk }, schema) => {
      const inner = new sdk.Agent({ name: 'Inner', model: 'gpt-4.1' });
      return new sdk.Agent({ name: 'Main', model: 'gpt-4.1', tools: [inner.asTool({ toolName: 'ask_inner', toolDescription: 'Ask.', parameters: schema as never })] });
    },
  ],
];

/** The first request body the program sends, or the error the SDK raised building or running it. */
async function firstRequest(under: SdkUnderTest, site: Site, shape: () => unknown): Promise<unknown> {
  const server = await FakeOpenAIServer.start({ turns: [fakeText('{}')] });
  try {
    const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
    const runner = new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
    const built = await outcomeOf((async () => site(under, shape()))());
    if (!built.ok) return { error: built.name, message: (built.error as Error).message };
    await outcomeOf(runner.run(built.value, 'go'));
    const body = server.requests[0]?.body as Json | undefined;
    return body ? { tools: body.tools, text: body.text } : { error: 'no request' };
  } finally {
    await server.close();
  }
}

describe.each(sites)('the schema sent for %s (same on both SDKs)', (_site, site) => {
  it.each(shapes)('%s', async (_shape, shape) => {
    const both = await onBoth((under) => firstRequest(under, site, shape));
    expect(both.baton).toEqual(both.reference);
  });
});
