import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf } from './sdks.js';

// A ToolCallError that a tool itself throws, with no errorFunction to answer the model, is not the
// run's error as it is: the run fails with a new ToolCallError ("Failed to run function tools: …")
// whose `error` is the one the tool threw, as any other error the tool throws.

describe('a ToolCallError thrown by a tool without an errorFunction (same on both SDKs)', () => {
  it('the run fails with a new ToolCallError wrapping it, and the model is not asked again', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const thrown = new sdk.ToolCallError('backend unavailable', new Error('backend down'));
      const lookup = sdk.tool({
        name: 'lookup',
        description: 'lookup',
        parameters: z.object({}),
        errorFunction: null,
        execute: async () => {
          throw thrown;
        },
      });
      const model = new testing.ScriptedModel([[testing.functionCall('lookup', {}, { callId: 'c1' })], [testing.assistantMessage('answer')]]);
      const outcome = await outcomeOf(sdk.run(new sdk.Agent({ name: 'A', model, tools: [lookup] }), 'go'));
      const error = outcome.ok ? undefined : (outcome.error as InstanceType<typeof sdk.ToolCallError>);
      return {
        name: outcome.ok ? 'ok' : outcome.name,
        sameAsThrown: error === thrown,
        wrapsThrown: error?.error === thrown,
        message: error?.message,
        calls: model.calls.length,
      };
    });
    expect(both.reference).toEqual({
      name: 'ToolCallError',
      sameAsThrown: false,
      wrapsThrown: true,
      message: 'Failed to run function tools: ToolCallError: backend unavailable',
      calls: 1,
    });
    expect(both.baton).toEqual(both.reference);
  });
});
