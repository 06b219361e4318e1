import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ModelBehaviorError, UserError, run, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { handoff } from '../src/index.js';

class RefundsClosedError extends Error {
  readonly code = 'REFUNDS_CLOSED';
}

function throwingScenario(error: unknown, withInput: boolean) {
  const refundsModel = new ScriptedModel([[assistantMessage('never')]]);
  const refunds = new Agent({ name: 'Refunds', model: refundsModel });
  const thrower = () => {
    throw error;
  };
  const h = withInput ? handoff(refunds, { inputType: z.object({ orderId: z.string() }), onHandoff: thrower }) : handoff(refunds, { onHandoff: thrower });
  const triageModel = new ScriptedModel([[functionCall('transfer_to_Refunds', withInput ? { orderId: 'A1' } : {})]]);
  const triage = new Agent({ name: 'Triage', model: triageModel, handoffs: [h] });
  return { triage, refundsModel };
}

describe('an onHandoff that throws', () => {
  it.each([
    ['without input', false],
    ['with input', true],
  ])('(%s) fails the run with its own error, unchanged', async (_label, withInput) => {
    const error = new RefundsClosedError('refunds are closed today');
    const { triage, refundsModel } = throwingScenario(error, withInput);
    const caught = await run(triage, 'refund').catch((e: unknown) => e);
    expect(caught).toBe(error);
    expect((caught as RefundsClosedError).code).toBe('REFUNDS_CLOSED');
    expect(refundsModel.calls).toHaveLength(0);
  });

  it('keeps a Baton error unchanged too (not re-wrapped)', async () => {
    const error = new ModelBehaviorError('custom');
    const { triage } = throwingScenario(error, false);
    await expect(run(triage, 'refund')).rejects.toBe(error);
  });

  it('ends the streamed run’s events with the same error, and rejects its `completed` with it', async () => {
    const error = new RefundsClosedError('closed');
    const { triage } = throwingScenario(error, false);
    const streamed = await run(triage, 'refund', { stream: true });
    const drained = (async () => {
      for await (const _event of streamed) {
        // drain: the iteration throws the run's error after the queued events
      }
    })();
    await expect(drained).rejects.toBe(error);
    await expect(streamed.completed).rejects.toBe(error);
  });
});

describe('a handoff named like something else', () => {
  const billing = () => new Agent({ name: 'Billing', model: new ScriptedModel([]) });

  it('clashing with a function tool is a UserError when the agent is prepared', async () => {
    const impostor = tool({ name: 'transfer_to_Billing', description: 'x', parameters: z.object({}), execute: () => 'tool ran' });
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const triage = new Agent({ name: 'Triage', model, tools: [impostor], handoffs: [handoff(billing())] });
    const error = await run(triage, 'hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('"transfer_to_Billing"');
    expect(model.calls).toHaveLength(0);
  });

  it('clashing with another handoff through toolNameOverride is a UserError', async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const refunds = new Agent({ name: 'Refunds' });
    const triage = new Agent({
      name: 'Triage',
      model,
      handoffs: [handoff(billing(), { toolNameOverride: 'escalate' }), handoff(refunds, { toolNameOverride: 'escalate' })],
    });
    await expect(run(triage, 'hi')).rejects.toThrow(UserError);
    expect(model.calls).toHaveLength(0);
  });

  it("with toolNameCollisionPolicy 'warn', the clashing handoff is not offered", async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const refunds = new Agent({ name: 'Refunds' });
    const triage = new Agent({
      name: 'Triage',
      model,
      handoffs: [handoff(billing(), { toolNameOverride: 'escalate' }), handoff(refunds, { toolNameOverride: 'escalate' })],
    });
    const result = await run(triage, 'hi', { toolNameCollisionPolicy: 'warn' });
    expect(result.finalOutput).toBe('ok');
    expect(model.firstCall?.request.handoffs.map((h) => [h.toolName, h.toolDescription])).toEqual([
      ['escalate', 'Handoff to the Billing agent to handle the request. '],
    ]);
  });
});
