import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type Sdk, type SdkTesting } from './sdks.js';

// Arguments a tool cannot take, run on both SDKs: arguments that are not JSON (an empty or blank
// string included) are answered by the runner and never reach the tool; arguments that fail the
// schema are the tool's error, answered by its error function (or failing the run without one).

/** The output the model received for a call, read from the next request's input. */
function outputSent(model: { lastCall?: { request: { input: unknown } } }, callId: string): unknown {
  const input = (model.lastCall?.request.input ?? []) as Array<{ type?: string; callId?: string; output?: unknown }>;
  const output = input.find((item) => item.type === 'function_call_result' && item.callId === callId)?.output as { text?: string } | string | undefined;
  return typeof output === 'string' ? output : output?.text;
}

type ToolMaker = (sdk: Sdk, testing: SdkTesting, ran: unknown[]) => unknown;

const zodTool = (extra: Record<string, unknown> = {}): ToolMaker => (sdk, _testing, ran) =>
  sdk.tool({ name: 't', description: '', parameters: z.object({ n: z.number() }), ...extra, execute: (input) => (ran.push(input), 'ran') } as never);
const jsonSchemaTool: ToolMaker = (sdk, _testing, ran) =>
  sdk.tool({
    name: 't',
    description: '',
    parameters: { type: 'object', properties: {}, required: [], additionalProperties: true },
    strict: false,
    execute: (input: unknown) => (ran.push(input), 'ran'),
  } as never);
const agentTool = (parameters?: unknown): ToolMaker => (sdk, testing, ran) =>
  new sdk.Agent({ name: 'inner', model: new testing.ScriptedModel([[testing.assistantMessage('inner ran')]]) }).asTool({
    toolName: 't',
    toolDescription: '',
    ...(parameters ? { parameters } : {}),
    customOutputExtractor: (result: { finalOutput?: unknown }) => (ran.push(result.finalOutput), String(result.finalOutput)),
  } as never);
const customAnswer = { errorFunction: (_context: unknown, error: Error) => `custom: ${error.constructor.name}` };

const cases: Array<[label: string, tool: ToolMaker, args: string]> = [
  ['a zod tool, empty arguments', zodTool(), ''],
  ['a zod tool, blank arguments', zodTool(), '  \n'],
  ['a zod tool, malformed JSON', zodTool(), '{"n":'],
  ['a zod tool, arguments failing the schema', zodTool(), '{"n":"x"}'],
  ['a zod tool, a missing field', zodTool(), '{}'],
  ['a zod tool with its own error function, malformed JSON', zodTool(customAnswer), '{"n":'],
  ['a zod tool with its own error function, arguments failing the schema', zodTool(customAnswer), '{"n":"x"}'],
  ['a zod tool with errorFunction null, malformed JSON', zodTool({ errorFunction: null }), '{"n":'],
  ['a JSON-schema tool with no required field, empty arguments', jsonSchemaTool, ''],
  ['an agent tool, empty arguments', agentTool(), ''],
  ['an agent tool, malformed JSON', agentTool(), '{"input":'],
  ['an agent tool, arguments without input', agentTool(), '{"question":"q"}'],
  ['an agent tool with parameters, arguments failing them', agentTool(z.object({ n: z.number() })), '{"n":"x"}'],
];

describe('arguments a tool cannot take (same on both SDKs)', () => {
  it.each(cases)('%s: what the model is told, and which hooks fire', async (_label, make, args) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const ran: unknown[] = [];
      const hooks: string[] = [];
      const t = make(sdk, testing, ran);
      const model = new testing.ScriptedModel([[{ ...testing.functionCall('t', {}, { callId: 'c1' }), arguments: args }], [testing.assistantMessage('done')]]);
      const agent = new sdk.Agent({ name: 'A', model, tools: [t as never] });
      agent.on('agent_tool_start', () => hooks.push('start'));
      agent.on('agent_tool_end', (_context, _tool, result) => hooks.push(`end: ${String(result)}`));
      const result = await outcomeOf(sdk.run(agent, 'go'));
      return { finalOutput: result.ok ? result.value.finalOutput : `failed: ${result.name}`, told: outputSent(model as never, 'c1'), hooks, ran };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it.each(cases.filter(([label]) => !label.includes('agent tool')))('%s: what invoke() answers when called directly', async (_label, make, args) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const ran: unknown[] = [];
      const t = make(sdk, testing, ran) as { invoke(context: unknown, input: string): Promise<unknown> };
      const answer = await outcomeOf(t.invoke(new sdk.RunContext({}), args));
      return { answer: answer.ok ? answer.value : `raised ${answer.name}`, ran };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it('a tool output guardrail sees the answer to arguments that failed the schema', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const seen: unknown[] = [];
      const look = sdk.defineToolOutputGuardrail({ name: 'look', run: async ({ output }) => (seen.push(output), sdk.ToolGuardrailFunctionOutputFactory.allow()) });
      const t = sdk.tool({ name: 't', description: '', parameters: z.object({ n: z.number() }), outputGuardrails: [look], execute: () => 'ran' });
      const model = new testing.ScriptedModel([[{ ...testing.functionCall('t', {}, { callId: 'c1' }), arguments: '{"n":"x"}' }], [testing.assistantMessage('done')]]);
      await sdk.run(new sdk.Agent({ name: 'A', model, tools: [t] }), 'go');
      return seen;
    });
    expect(both.baton).toEqual(both.reference);
  });
});
