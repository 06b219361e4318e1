import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// Errors carry the run's state, and running that state again does what the reference does.

type Results = { input: number; output: number; toolInput: number; toolOutput: number };

/** Guardrail results on a state: Baton's getters, the reference's underscored fields. */
function resultsOf(state: unknown): Results {
  const s = state as Record<string, unknown[] | undefined>;
  const pick = (name: string) => (s[name] ?? s[`_${name}`] ?? []).length;
  return {
    input: pick('inputGuardrailResults'),
    output: pick('outputGuardrailResults'),
    toolInput: pick('toolInputGuardrailResults'),
    toolOutput: pick('toolOutputGuardrailResults'),
  };
}

function guardedSetup({ sdk, testing }: SdkUnderTest, outputGuardrail: { name: string; execute: () => Promise<unknown> }) {
  const allow = sdk.defineToolInputGuardrail({ name: 'args_ok', run: async () => sdk.ToolGuardrailFunctionOutputFactory.allow() });
  const allowOut = sdk.defineToolOutputGuardrail({ name: 'out_ok', run: async () => sdk.ToolGuardrailFunctionOutputFactory.allow() });
  const lookup = sdk.tool({
    name: 'lookup',
    description: 'lookup',
    parameters: z.object({ id: z.string() }),
    inputGuardrails: [allow],
    outputGuardrails: [allowOut],
    execute: ({ id }) => `found ${id}`,
  });
  const model = new testing.ScriptedModel([[testing.functionCall('lookup', { id: 'x' }, { callId: 'c1' })], [testing.assistantMessage('answer')]]);
  const inputGuard = { name: 'in_ok', execute: async () => ({ tripwireTriggered: false, outputInfo: null }) };
  const agent = new sdk.Agent({ name: 'A', model, tools: [lookup], inputGuardrails: [inputGuard], outputGuardrails: [outputGuardrail as never] });
  return { agent, model };
}

describe('errors carry the state (same on both SDKs)', () => {
  it.each([false, true])('an output guardrail tripwire carries every guardrail result of the run (streamed: %s)', async (stream) => {
    const both = await onBoth(async (under) => {
      const trip = { name: 'no', execute: async () => ({ tripwireTriggered: true, outputInfo: 'blocked' }) };
      const { agent } = guardedSetup(under, trip);
      const outcome = await outcomeOf(
        (async () => {
          if (!stream) return under.sdk.run(agent, 'go');
          const result = await under.sdk.run(agent, 'go', { stream: true });
          try {
            for await (const _ of result) {
              // drain
            }
          } catch {
            // the reference's iteration rethrows; completed carries the same error
          }
          await result.completed;
          return result;
        })(),
      );
      const error = outcome.ok ? undefined : (outcome.error as { state?: unknown });
      return { name: outcome.ok ? 'ok' : outcome.name, hasState: error?.state !== undefined, results: resultsOf(error?.state) };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({ name: 'OutputGuardrailTripwireTriggered', hasState: true, results: { input: 1, output: 1, toolInput: 1, toolOutput: 1 } });
  });

  it('after a crashed output guardrail, running the state again checks the saved answer without calling the model', async () => {
    const both = await onBoth(async (under) => {
      let calls = 0;
      const flaky = {
        name: 'flaky',
        execute: async () => {
          calls += 1;
          if (calls === 1) throw new Error('checker down');
          return { tripwireTriggered: false, outputInfo: null };
        },
      };
      const { agent, model } = guardedSetup(under, flaky);
      const first = await outcomeOf(under.sdk.run(agent, 'go'));
      const state = first.ok ? undefined : (first.error as { state: unknown }).state;
      const modelCallsBefore = model.calls.length;
      const second = await outcomeOf(under.sdk.run(agent, state as never));
      return {
        first: first.ok ? 'ok' : first.name,
        second: second.ok ? 'ok' : second.name,
        finalOutput: second.ok ? second.value.finalOutput : undefined,
        newModelCalls: model.calls.length - modelCallsBefore,
        guardrailCalls: calls,
      };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it('after a ToolCallError, running the state again goes back to before that turn', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      let attempts = 0;
      const flaky = sdk.tool({
        name: 'flaky',
        description: 'flaky',
        parameters: z.object({}),
        errorFunction: null,
        execute: () => {
          attempts += 1;
          if (attempts === 1) throw new Error('disk full');
          return 'ok';
        },
      });
      const model = new testing.ScriptedModel([
        [testing.functionCall('flaky', {}, { callId: 'c1' })],
        [testing.functionCall('flaky', {}, { callId: 'c2' })],
        [testing.assistantMessage('done')],
      ]);
      const agent = new sdk.Agent({ name: 'A', model, tools: [flaky] });
      const first = await outcomeOf(sdk.run(agent, 'go'));
      const state = first.ok ? undefined : (first.error as { state: unknown }).state;
      const second = await outcomeOf(sdk.run(agent, state as never));
      const inputs = model.calls.map((call) =>
        (call.request.input as Array<{ type?: string; callId?: string; role?: string }>).map((item) => item.type === 'message' || item.role ? `msg:${item.role}` : `${item.type}:${item.callId}`),
      );
      return {
        first: first.ok ? 'ok' : first.name,
        second: second.ok ? 'ok' : second.name,
        finalOutput: second.ok ? second.value.finalOutput : undefined,
        inputs,
        attempts,
      };
    });
    expect(both.baton).toEqual(both.reference);
  });
});
