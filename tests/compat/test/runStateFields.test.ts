import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth } from './sdks.js';

// The reference's RunState exposes its state as public underscore fields (`_currentTurn`,
// `_generatedItems`, ...), and programs read them. The same program on both SDKs reads the same.

describe("RunState's underscore fields (same on both SDKs)", () => {
  it.each([false, true])('a paused run reads the same through them (after toString/fromString: %s)', async (serialize) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const lookup = sdk.tool({ name: 'lookup', description: 'l', parameters: z.object({}), execute: () => 'found' });
      const pay = sdk.tool({ name: 'pay', description: 'p', parameters: z.object({}), needsApproval: true, execute: () => 'paid' });
      const model = new testing.ScriptedModel([
        [testing.functionCall('lookup', {}, { callId: 'c1' })],
        [testing.functionCall('pay', {}, { callId: 'c2' })],
      ]);
      const agent = new sdk.Agent({ name: 'Cashier', model, tools: [lookup, pay] });
      const paused = await sdk.run(agent, 'pay the bill', { context: { userId: 'u1' }, maxTurns: 7 });
      const state = serialize ? await sdk.RunState.fromString(agent, paused.state.toString()) : paused.state;
      return {
        currentTurn: state._currentTurn,
        currentAgent: state._currentAgent.name,
        originalInput: state._originalInput,
        maxTurns: state._maxTurns,
        context: state._context.context,
        generatedItems: state._generatedItems.map((item) => item.type),
        modelResponses: state._modelResponses.length,
        inputGuardrailResults: state._inputGuardrailResults.length,
        outputGuardrailResults: state._outputGuardrailResults.length,
      };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toMatchObject({ currentTurn: 2, currentAgent: 'Cashier', maxTurns: 7, modelResponses: 2 });
  });
});
