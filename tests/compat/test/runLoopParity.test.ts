import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// Run-loop behaviours of issue 24, the same program on both SDKs.

async function finish(result: { completed?: Promise<void> } & AsyncIterable<unknown>): Promise<void> {
  try {
    for await (const _ of result) {
      // drain
    }
  } finally {
    await result.completed;
  }
}

function tenantSession() {
  const histories = new Map<string, unknown[]>();
  const seen: unknown[] = [];
  const key = (runContext: { context: { tenant: string } } | undefined) => {
    if (!runContext) throw new Error('TenantSession requires a run context');
    return runContext.context.tenant;
  };
  const of = (runContext: { context: { tenant: string } } | undefined) => {
    const k = key(runContext);
    if (!histories.has(k)) histories.set(k, []);
    return histories.get(k)!;
  };
  const session = {
    acceptsRunContext: true as const,
    getSessionId: async () => 'tenants',
    getItems: async (_limit?: number, runContext?: never) => (seen.push(runContext), [...of(runContext)]),
    addItems: async (items: unknown[], runContext?: never) => void (seen.push(runContext), of(runContext).push(...items)),
    popItem: async (runContext?: never) => of(runContext).pop(),
    clearSession: async (runContext?: never) => void histories.delete(key(runContext)),
  };
  return { session, histories, seen };
}

describe('run-loop parity (issue 24)', () => {
  it.each([false, true])('a RunContextAwareSession receives the run context on every call (streamed: %s)', async (stream) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const { session, histories, seen } = tenantSession();
      const agent = new sdk.Agent({ name: 'Desk', model: new testing.ScriptedModel([[testing.assistantMessage('hi acme')]]) });
      const options = { context: { tenant: 'acme' }, session: session as never };
      const outcome = await outcomeOf(
        (async () => {
          if (!stream) return sdk.run(agent, 'hello', options);
          const result = await sdk.run(agent, 'hello', { ...options, stream: true });
          await finish(result);
          return result;
        })(),
      );
      const runContext = outcome.ok ? outcome.value.runContext : undefined;
      return {
        ok: outcome.ok,
        calls: seen.length,
        allTheRunContext: seen.every((c) => c !== undefined && c === runContext),
        acme: histories.get('acme')?.length,
      };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({ ok: true, calls: 2, allTheRunContext: true, acme: 2 });
  });

  it.each(['input', 'output'] as const)('a tool %s guardrail tripwire carries the run state with every turn’s results', async (kind) => {
    const both = await onBoth(async ({ sdk, testing }: SdkUnderTest) => {
      let calls = 0;
      const run = async () => {
        calls += 1;
        const info = `${kind}-${calls}`;
        return calls === 2 ? sdk.ToolGuardrailFunctionOutputFactory.throwException(info) : sdk.ToolGuardrailFunctionOutputFactory.allow(info);
      };
      const lookup = sdk.tool({
        name: 'lookup',
        description: 'lookup',
        parameters: z.object({ n: z.number() }),
        execute: ({ n }) => `row ${n}`,
        ...(kind === 'input'
          ? { inputGuardrails: [sdk.defineToolInputGuardrail({ name: 'in', run })] }
          : { outputGuardrails: [sdk.defineToolOutputGuardrail({ name: 'out', run })] }),
      });
      const model = new testing.ScriptedModel([
        [testing.functionCall('lookup', { n: 1 }, { callId: 'c1' })],
        [testing.functionCall('lookup', { n: 2 }, { callId: 'c2' })],
      ]);
      const outcome = await outcomeOf(sdk.run(new sdk.Agent({ name: 'A', model, tools: [lookup] }), 'go'));
      const error = outcome.ok ? undefined : (outcome.error as { error?: { state?: Record<string, unknown[]> }; state?: unknown });
      const tripState = error?.error?.state;
      const results = tripState?.[kind === 'input' ? '_toolInputGuardrailResults' : '_toolOutputGuardrailResults'] as
        | Array<{ output: { outputInfo: unknown } }>
        | undefined;
      return {
        name: outcome.ok ? 'ok' : outcome.name,
        tripwire: error?.error?.constructor?.name,
        sameState: tripState !== undefined && tripState === error?.state,
        infos: results?.map((r) => r.output.outputInfo),
      };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.sameState).toBe(true);
  });

  it.each(['merge', 'preferSerialized'] as const)(
    'a nested agent tool resumed with contextStrategy %s sees the context it should after the live one changed',
    async (strategy) => {
      const both = await onBoth(async ({ sdk, testing }) => {
        const seen: string[] = [];
        const danger = sdk.tool({
          name: 'danger',
          description: 'd',
          parameters: z.object({}),
          needsApproval: async (runContext: { context: { tenant: string } }) => (seen.push(runContext.context.tenant), true),
          execute: async () => 'done',
        });
        const inner = new sdk.Agent({ name: 'Inner', model: new testing.ScriptedModel([[testing.functionCall('danger', {}, { callId: 'd1' })], [testing.assistantMessage('ok')]]), tools: [danger] });
        const tool = inner.asTool({ toolName: 'inner', toolDescription: 'inner', resumeState: { contextStrategy: strategy } } as never);
        const model = new testing.ScriptedModel([[testing.functionCall('inner', { input: 'go' }, { callId: 'c1' })], [testing.assistantMessage('after')]]);
        const agent = new sdk.Agent({ name: 'Main', model, tools: [tool] });
        const context = { tenant: 'at-pause' };
        const paused = await sdk.run(agent, 'go', { context });
        context.tenant = 'changed-later';
        for (const item of paused.interruptions) paused.state.approve(item);
        await outcomeOf(sdk.run(agent, paused.state));
        return seen;
      });
      expect(both.baton).toEqual(both.reference);
      expect(both.baton.at(-1)).toBe(strategy === 'preferSerialized' ? 'at-pause' : 'changed-later');
    },
  );

  it('stop_on_first_tool and stopAtToolNames give the tool’s value as the reference does, for every kind of value', async () => {
    const values = [{ sum: 2 }, 3, [1, 2], 'text', null, true];
    const behaviors = ['stop_on_first_tool', { stopAtToolNames: ['add'] }] as const;
    const both = await onBoth(async ({ sdk, testing }) => {
      const rows: unknown[] = [];
      for (const value of values) {
        for (const toolUseBehavior of behaviors) {
          for (const stream of [false, true]) {
            const add = sdk.tool({ name: 'add', description: '', parameters: z.object({}), execute: async () => value as never });
            const model = new testing.ScriptedModel([[testing.functionCall('add', {}, { callId: 'c1' })]]);
            const agent = new sdk.Agent({ name: 'A', model, tools: [add], toolUseBehavior: toolUseBehavior as never });
            let finalOutput: unknown;
            if (stream) {
              const result = await sdk.run(agent, 'go', { stream: true });
              await finish(result);
              finalOutput = result.finalOutput;
            } else {
              finalOutput = (await sdk.run(agent, 'go')).finalOutput;
            }
            rows.push({ value, toolUseBehavior, stream, finalOutput, kind: typeof finalOutput });
          }
        }
      }
      return rows;
    });
    expect(both.baton).toEqual(both.reference);
  });

  it('a throwing tool answered with the default text: the model gets the same text; Baton also keeps the error on the item', async () => {
    const boom = new Error('connection string postgres://admin:pw@db');
    const both = await onBoth(async ({ sdk, testing }) => {
      const lookup = sdk.tool({
        name: 'lookup',
        description: '',
        parameters: z.object({}),
        execute: async () => {
          throw boom;
        },
      });
      const model = new testing.ScriptedModel([[testing.functionCall('lookup', {}, { callId: 'c1' })], [testing.assistantMessage('sorry')]]);
      const result = await sdk.run(new sdk.Agent({ name: 'A', model, tools: [lookup] }), 'go');
      const item = result.newItems.find((i) => i.type === 'tool_call_output_item') as { output: unknown; error?: unknown };
      return {
        toModel: JSON.stringify(model.calls[1]?.request.input).includes('An error occurred while running the tool'),
        leaked: JSON.stringify(model.calls[1]?.request.input).includes('postgres://'),
        output: item.output,
        inJson: JSON.stringify(result.state.toJSON()).includes('postgres://'),
        error: item.error,
      };
    });
    const { error: referenceError, ...reference } = both.reference;
    const { error: batonError, ...baton } = both.baton;
    expect(baton).toEqual(reference);
    expect(baton).toMatchObject({ toModel: true, leaked: false, inJson: false });
    // The reference drops the error; Baton keeps it for the developer (issue 24, item 4).
    expect(referenceError).toBeUndefined();
    expect(batonError).toBe(boom);
  });

  it.each(['structured', 'segmented', 'text'] as const)('a nested agent tool answers the outer model with the same text (%s)', async (shape) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const reasoning = { type: 'reasoning', id: 'rs_1', content: [] };
      const responses = {
        structured: [testing.assistantMessage('{ "answer": "42" }')],
        segmented: [reasoning as never, testing.assistantMessage('first '), testing.assistantMessage('second')],
        text: [testing.assistantMessage('all good')],
      }[shape];
      const inner = new sdk.Agent({
        name: 'Inner',
        model: new testing.ScriptedModel([responses]),
        ...(shape === 'structured' ? { outputType: z.object({ answer: z.string() }) } : {}),
      });
      const outerModel = new testing.ScriptedModel([[testing.functionCall('inner', { input: 'go' }, { callId: 'c1' })], [testing.assistantMessage('done')]]);
      await sdk.run(new sdk.Agent({ name: 'Outer', model: outerModel, tools: [inner.asTool({ toolName: 'inner', toolDescription: '' })] }), 'go');
      const input = outerModel.calls[1]!.request.input as Array<{ type: string; output?: unknown }>;
      return input.find((item) => item.type === 'function_call_result')?.output;
    });
    expect(both.baton).toEqual(both.reference);
  });

  it.each(['refusal only', 'refusal only, handled', 'refusal beside text'] as const)('a model refusal in a text agent ends the run as the reference does (%s)', async (shape) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const content =
        shape === 'refusal beside text'
          ? [{ type: 'output_text', text: 'Partly: ' }, { type: 'refusal', refusal: 'not the rest' }]
          : [{ type: 'refusal', refusal: 'I cannot help with that.' }];
      const message = { type: 'message', role: 'assistant', status: 'completed', content };
      const agent = new sdk.Agent({ name: 'A', model: new testing.ScriptedModel([[message as never]]) });
      const handlers = shape === 'refusal only, handled' ? { errorHandlers: { default: () => ({ finalOutput: 'safe fallback' }) } } : {};
      const outcome = await outcomeOf(sdk.run(agent, 'x', handlers as never));
      return outcome.ok ? { finalOutput: outcome.value.finalOutput, items: outcome.value.newItems.length } : { error: outcome.name };
    });
    expect(both.baton).toEqual(both.reference);
  });
});
