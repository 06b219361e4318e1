import { describe, expect, it } from 'vitest';
import { z } from 'zod3';
import { onBoth } from './sdks.js';

// zod 3 schemas (zod@^3.25, classic API), which the reference accepts, work on Baton for tool
// parameters, outputType, handoff input and agent-tool parameters.

/** Key order differs between the two converters; the schemas must say the same thing. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sortedKeys(v)]));
}

describe('zod 3 schemas (same on both SDKs)', () => {
  it('tool parameters: the strict schema offered, optional fields sent as null reach execute without them', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const received: unknown[] = [];
      const weather = sdk.tool({
        name: 'weather',
        description: 'Weather for a city',
        parameters: z.object({ city: z.string().describe('City name'), days: z.number().optional(), unit: z.enum(['c', 'f']).nullable(), tags: z.array(z.string()) }),
        execute: (args: unknown) => {
          received.push(args);
          return 'sunny';
        },
      });
      const model = new testing.ScriptedModel([
        [
          testing.functionCall('weather', { city: 'Oslo', days: null, unit: 'c', tags: ['a'] }, { callId: 'c1' }),
        ],
        [testing.assistantMessage('done')],
      ]);
      await sdk.run(new sdk.Agent({ name: 'A', model, tools: [weather] }), 'go');
      const tool = model.calls[0]!.request.tools[0] as { parameters: unknown; strict?: boolean };
      return { parameters: sortedKeys(tool.parameters), strict: tool.strict, received };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.received).toEqual([{ city: 'Oslo', unit: 'c', tags: ['a'] }]);
  });

  it.each([
    ['all fields required', z.object({ answer: z.string(), sources: z.array(z.string()) }), '{"answer":"42","sources":[]}'],
    ['an optional field', z.object({ answer: z.string(), confidence: z.number().optional() }), '{"answer":"42","confidence":0.5}'],
  ])('outputType with %s: the `output` format sent and the answer parsed into an object', async (_label, schema, answer) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const model = new testing.ScriptedModel([[testing.assistantMessage(answer)]]);
      const agent = new sdk.Agent({ name: 'A', model, outputType: schema });
      const result = await sdk.run(agent, 'go');
      const format = model.calls[0]!.request.outputType as Record<string, unknown>;
      return { format: sortedKeys(format), finalOutput: result.finalOutput };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it('handoff inputType: the schema offered and the parsed input handed to onHandoff', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const seen: unknown[] = [];
      const refunds = new sdk.Agent({ name: 'Refunds', model: new testing.ScriptedModel([[testing.assistantMessage('refunded')]]) });
      const toRefunds = sdk.handoff(refunds, {
        inputType: z.object({ reason: z.string(), amount: z.number() }),
        onHandoff: (_context: unknown, input: unknown) => {
          seen.push(input);
        },
      } as never);
      const model = new testing.ScriptedModel([[testing.functionCall('transfer_to_Refunds', { reason: 'broken', amount: 3 }, { callId: 'h1' })]]);
      const result = await sdk.run(new sdk.Agent({ name: 'Triage', model, handoffs: [toRefunds] }), 'refund please');
      const offered = model.calls[0]!.request.handoffs[0] as { inputJsonSchema: unknown };
      return { schema: sortedKeys(offered.inputJsonSchema), seen, finalOutput: result.finalOutput };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.seen).toEqual([{ reason: 'broken', amount: 3 }]);
  });

  it('agent.asTool parameters: the structured input built into the nested run', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const innerModel = new testing.ScriptedModel([[testing.assistantMessage('Hei')]]);
      const tool = new sdk.Agent({ name: 'Translator', model: innerModel }).asTool({
        toolName: 'translate',
        toolDescription: 'Translate',
        parameters: z.object({ text: z.string(), language: z.string() }),
        inputBuilder: ({ params }: { params: { text: string; language: string } }) => `${params.text} -> ${params.language}`,
      } as never);
      const model = new testing.ScriptedModel([[testing.functionCall('translate', { text: 'hi', language: 'no' }, { callId: 't1' })], [testing.assistantMessage('done')]]);
      await sdk.run(new sdk.Agent({ name: 'Main', model, tools: [tool] }), 'go');
      return { parameters: sortedKeys((model.calls[0]!.request.tools[0] as { parameters: unknown }).parameters), nestedInput: innerModel.calls[0]!.request.input };
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('zod 3 on Baton', () => {
  it('integers stay integers in the schema (the reference writes `number` for zod 3 only; both write `integer` for zod 4)', async () => {
    const { tool } = await import('@baton/agents');
    const t = tool({ name: 'count', description: 'c', parameters: z.object({ n: z.number().int() }), execute: () => 'ok' });
    expect((t.parameters as { properties: Record<string, unknown> }).properties.n).toEqual({ type: 'integer' });
  });
});
