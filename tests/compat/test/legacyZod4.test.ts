import { describe, expect, it } from 'vitest';
import { z } from 'zod-4-1';
import { onBoth, type SdkUnderTest } from './sdks.js';

// zod 4.0 and 4.1 schemas (no Standard JSON Schema yet; the reference accepts zod ^4.0.0): the
// tool parameters and the output type reach the model the same on both SDKs, byte for byte, and a
// run with them ends the same. The same program on both SDKs.

const shapes: Array<[string, () => unknown]> = [
  ['strings and numbers', () => z.object({ city: z.string(), days: z.number().int() })],
  ['descriptions and meta', () => z.object({ city: z.string().describe('The city'), unit: z.enum(['c', 'f']).describe('Unit'), q: z.string().meta({ title: 'Query', examples: ['rain'] }) }).describe('A request')],
  ['optional, nullable and nullish fields', () => z.object({ a: z.string().optional(), b: z.number().nullable(), c: z.boolean().nullish() })],
  ['nested objects and arrays', () => z.object({ items: z.array(z.object({ id: z.string(), tags: z.array(z.string()) })) })],
  ['a discriminated union', () => z.object({ shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), r: z.number() }), z.object({ kind: z.literal('square'), side: z.number() })]) })],
];

async function described({ sdk, testing }: SdkUnderTest, shape: () => unknown, strict: boolean) {
  const seen: unknown[] = [];
  const t = sdk.tool({ name: 'lookup', description: 'd', parameters: shape() as never, strict, execute: async (input: unknown) => (seen.push(input), 'found') } as never);
  const model = new testing.ScriptedModel([[testing.functionCall('lookup', {}, { callId: 'c1' })], [testing.assistantMessage('done')]] as never);
  const outcome = await sdk.run(new sdk.Agent({ name: 'A', model, tools: [t] } as never), 'go').then(
    (result) => ({ finalOutput: result.finalOutput, outputs: result.newItems.filter((item) => item.type === 'tool_call_output_item').length }),
    (error: Error) => error.constructor.name,
  );
  return { parameters: JSON.stringify((t as { parameters: unknown }).parameters), strict: (t as { strict: boolean }).strict, outcome, executed: seen.length };
}

describe('a zod 4 release before 4.2 on both SDKs (same on both)', () => {
  // Strict only: the reference refuses zod parameters in a non-strict tool.
  it.each(shapes)('%s', async (_label, shape) => {
    const both = await onBoth((under) => described(under, shape, true));
    expect(both.baton).toEqual(both.reference);
  });

  it('an output type', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const model = new testing.ScriptedModel([[testing.assistantMessage('{"answer":"yes","score":2}')]] as never);
      const agent = new sdk.Agent({ name: 'A', model, outputType: z.object({ answer: z.string().describe('The answer'), score: z.number() }) } as never);
      return (await sdk.run(agent, 'go')).finalOutput;
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({ answer: 'yes', score: 2 });
  });
});
