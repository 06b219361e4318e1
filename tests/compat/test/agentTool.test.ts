import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, sdks, type SdkUnderTest } from './sdks.js';

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

type Strategy = 'merge' | 'replace' | 'preferSerialized' | undefined;

/**
 * A nested agent tool pauses on its own tool; the outer state approves it with `alwaysApprove` and
 * resumes (in process or through `toString()`), up to three rounds. The nested model calls the
 * tool twice, so the sticky approval must reach the nested run for it to finish.
 */
async function nestedApprovalRun(
  { sdk, testing }: SdkUnderTest,
  strategy: Strategy,
  givenContext: boolean,
  serialize: boolean,
): Promise<{ rounds: string[]; finalOutput: unknown; contextsSeen: unknown[]; nestedModelCalls: number }> {
  const contextsSeen: unknown[] = [];
  const danger = sdk.tool({
    name: 'danger',
    description: 'd',
    parameters: z.object({}),
    needsApproval: true,
    execute: (_args: unknown, runContext?: { context: unknown }) => {
      contextsSeen.push(runContext?.context);
      return 'done';
    },
  });
  const innerModel = new testing.ScriptedModel([
    [testing.functionCall('danger', {}, { callId: 'd1' })],
    [testing.functionCall('danger', {}, { callId: 'd2' })],
    [testing.assistantMessage('inner done')],
  ]);
  const inner = new sdk.Agent({ name: 'Inner', model: innerModel, tools: [danger] });
  const options: Record<string, unknown> = { toolName: 'inner', toolDescription: 'inner' };
  if (givenContext) options.runOptions = { context: { tenant: 'given' } };
  if (strategy) options.resumeState = { contextStrategy: strategy };
  const model = new testing.ScriptedModel([[testing.functionCall('inner', { input: 'go' }, { callId: 'c1' })], [testing.assistantMessage('after')]]);
  const agent = new sdk.Agent({ name: 'Main', model, tools: [inner.asTool(options as never)] });
  let result = await sdk.run(agent, 'go', { context: { tenant: 'outer' } });
  const rounds: string[] = [];
  for (let round = 0; round < 3 && result.interruptions.length > 0; round++) {
    rounds.push(result.interruptions.map((item) => `${item.name}:${(item.rawItem as { callId: string }).callId}`).join(','));
    let state = result.state;
    for (const item of result.interruptions) state.approve(item, { alwaysApprove: true });
    if (serialize) state = await sdk.RunState.fromString(agent, state.toString());
    result = await sdk.run(agent, state);
  }
  return { rounds, finalOutput: result.interruptions.length > 0 ? undefined : result.finalOutput, contextsSeen, nestedModelCalls: innerModel.calls.length };
}

describe('asTool resumeState.contextStrategy', () => {
  const cases = ([undefined, 'merge', 'replace', 'preferSerialized'] as Strategy[]).flatMap((strategy) =>
    [false, true].flatMap((givenContext) => [false, true].map((serialize) => ({ strategy, givenContext, serialize }))),
  );
  it.each(cases)('$strategy (runOptions.context given: $givenContext, serialized: $serialize) resumes as the reference does', async ({ strategy, givenContext, serialize }) => {
    const both = await onBoth((under) => nestedApprovalRun(under, strategy, givenContext, serialize));
    expect(both.baton).toEqual(both.reference);
  });

  it('merge lets the outer sticky approval finish the nested run; replace with its own context and preferSerialized pause again', async () => {
    const [merge, replace, preferSerialized] = await Promise.all(
      (['merge', 'replace', 'preferSerialized'] as const).map(async (strategy) => nestedApprovalRun(sdks[1]!, strategy, true, true)),
    );
    expect(merge).toMatchObject({ rounds: ['danger:d1'], finalOutput: 'after', contextsSeen: [{ tenant: 'given' }, { tenant: 'given' }] });
    expect(replace.rounds).toEqual(['danger:d1', 'danger:d1', 'danger:d1']);
    expect(preferSerialized.rounds).toEqual(['danger:d1', 'danger:d1', 'danger:d1']);
  });

  it('an unknown strategy is a UserError naming the accepted ones', async () => {
    const baton = await import('@baton/agents');
    const agent = new baton.Agent({ name: 'A' });
    expect(() => agent.asTool({ toolName: 'a', resumeState: { contextStrategy: 'keep' } } as never)).toThrow(
      /`resumeState.contextStrategy` must be 'merge', 'replace' or 'preferSerialized', got "keep"/,
    );
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
