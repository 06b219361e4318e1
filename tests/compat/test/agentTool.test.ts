import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf } from './sdks.js';

// agent.asTool() options, run on both SDKs where both behave alike.

describe('asTool options', () => {
  it('parameters + inputBuilder: the structured schema is offered and the nested input built from the arguments', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const innerModel = new testing.ScriptedModel([[testing.assistantMessage('Bonjour')]]);
      const translator = new sdk.Agent({ name: 'Translator', model: innerModel });
      const tool = translator.asTool({
        toolName: 'translate',
        toolDescription: 'Translate a text.',
        parameters: z.object({ text: z.string(), language: z.string() }),
        inputBuilder: ({ params }: { params: { text: string; language: string } }) => `Translate "${params.text}" into ${params.language}.`,
      } as never);
      const model = new testing.ScriptedModel([
        [testing.functionCall('translate', { text: 'hello', language: 'French' }, { callId: 't1' })],
        [testing.assistantMessage('done')],
      ]);
      const result = await sdk.run(new sdk.Agent({ name: 'Main', model, tools: [tool] }), 'go');
      const offered = model.calls[0]!.request.tools[0] as { parameters: unknown };
      return { parameters: offered.parameters, nestedInput: innerModel.calls[0]!.request.input, finalOutput: result.finalOutput };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it.each([1, 5])('runOptions reach the nested run (maxTurns %i); a failed nested run answers the model with the default tool error text', async (maxTurns) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const loop = sdk.tool({ name: 'again', description: 'again', parameters: z.object({}), execute: () => 'more' });
      const innerModel = new testing.ScriptedModel([[testing.functionCall('again', {}, { callId: 'i1' })], [testing.assistantMessage('inner done')]]);
      const inner = new sdk.Agent({ name: 'Inner', model: innerModel, tools: [loop] });
      const model = new testing.ScriptedModel([[testing.functionCall('inner', { input: 'go' }, { callId: 'c1' })], [testing.assistantMessage('after')]]);
      const agent = new sdk.Agent({ name: 'Main', model, tools: [inner.asTool({ toolName: 'inner', toolDescription: 'inner', runOptions: { maxTurns } } as never)] });
      const outcome = await outcomeOf(sdk.run(agent, 'go'));
      const toolOutput = (model.calls[1]?.request.input as Array<{ output?: unknown }> | undefined)?.at(-1)?.output;
      return { outcome: outcome.ok ? outcome.value.finalOutput : outcome.name, toolOutput, innerCalls: innerModel.calls.length };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.innerCalls).toBe(maxTurns === 1 ? 1 : 2);
  });
});

describe('asTool on Baton only', () => {
  it('an option Baton does not support fails with UserError naming it, never silently ignored', async () => {
    const baton = await import('@baton/agents');
    const agent = new baton.Agent({ name: 'A' });
    expect(() => agent.asTool({ toolName: 'a', onStreamMaxPendingEvents: 5 } as never)).toThrow(baton.UserError);
    expect(() => agent.asTool({ toolName: 'a', onStreamMaxPendingEvents: 5 } as never)).toThrow(/`onStreamMaxPendingEvents` is not supported/);
  });

  it('without an inputBuilder, structured arguments reach the nested agent as JSON (with the schema when includeInputSchema)', async () => {
    const { Agent, run } = await import('@baton/agents');
    const { ScriptedModel, assistantMessage, functionCall } = await import('@baton/agents/testing');
    const inner = new ScriptedModel([[assistantMessage('ok')]]);
    const tool = new Agent({ name: 'Inner', model: inner }).asTool({ toolName: 'inner', parameters: z.object({ city: z.string() }), includeInputSchema: true });
    const model = new ScriptedModel([[functionCall('inner', { city: 'Oslo' }, { callId: 'c1' })], [assistantMessage('done')]]);
    await run(new Agent({ name: 'Main', model, tools: [tool] }), 'go');
    const text = JSON.stringify(inner.calls[0]!.request.input);
    expect(text).toContain('Oslo');
    expect(text).toContain('\\"required\\"');
  });
});
