import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// A ToolCallError that a tool guardrail's own function throws is not the run's error as it is: the
// run fails with a new ToolCallError ("Failed to run function tools: …") whose `error` is the one
// the guardrail threw — as any other error a guardrail throws.

function program(kind: 'input' | 'output') {
  return async ({ sdk, testing }: SdkUnderTest) => {
    const thrown = new sdk.ToolCallError('checker unavailable', new Error('backend down'));
    const guard =
      kind === 'input'
        ? { inputGuardrails: [sdk.defineToolInputGuardrail({ name: 'checker', run: async () => { throw thrown; } })] }
        : { outputGuardrails: [sdk.defineToolOutputGuardrail({ name: 'checker', run: async () => { throw thrown; } })] };
    const lookup = sdk.tool({ name: 'lookup', description: 'lookup', parameters: z.object({}), ...guard, execute: () => 'found' });
    const model = new testing.ScriptedModel([[testing.functionCall('lookup', {}, { callId: 'c1' })], [testing.assistantMessage('answer')]]);
    const outcome = await outcomeOf(sdk.run(new sdk.Agent({ name: 'A', model, tools: [lookup] }), 'go'));
    const error = outcome.ok ? undefined : (outcome.error as InstanceType<typeof sdk.ToolCallError>);
    return {
      name: outcome.ok ? 'ok' : outcome.name,
      sameAsThrown: error === thrown,
      wrapsThrown: error?.error === thrown,
      message: error?.message,
    };
  };
}

describe('a ToolCallError thrown by a tool guardrail (same on both SDKs)', () => {
  it.each(['input', 'output'] as const)('%s guardrail: the run fails with a new ToolCallError wrapping it', async (kind) => {
    const both = await onBoth(program(kind));
    expect(both.reference).toEqual({
      name: 'ToolCallError',
      sameAsThrown: false,
      wrapsThrown: true,
      message: 'Failed to run function tools: ToolCallError: checker unavailable',
    });
    expect(both.baton).toEqual(both.reference);
  });
});
