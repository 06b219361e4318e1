import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ModelBehaviorError, UserError, run, type JsonObjectSchema, type RunContextContract } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { handoff } from '../src/index.js';

const RefundInput = z.object({ orderId: z.string(), reason: z.string().optional() });
type RefundInput = z.infer<typeof RefundInput>;

function refundScenario(args: string | Record<string, unknown>, toolNameOverride?: string) {
  const received: Array<{ context: RunContextContract<{ user: string }>; input: RefundInput }> = [];
  const refundsModel = new ScriptedModel([[assistantMessage('refund started')]]);
  const refunds = new Agent<{ user: string }>({ name: 'Refunds', model: refundsModel });
  const refundHandoff = handoff(refunds, {
    inputType: RefundInput,
    onHandoff: (context, input) => {
      received.push({ context, input });
    },
    ...(toolNameOverride ? { toolNameOverride } : {}),
  });
  const triageModel = new ScriptedModel([[functionCall(refundHandoff.toolName, args, { callId: 'h1' })]]);
  const triage = new Agent<{ user: string }>({ name: 'Triage', model: triageModel, handoffs: [refundHandoff] });
  return { triage, triageModel, refundsModel, received, refundHandoff };
}

describe('a handoff with an inputType', () => {
  it('is offered with the strict JSON schema of its input type', async () => {
    const { triage, triageModel } = refundScenario({ orderId: 'A1', reason: null });
    await run(triage, 'refund please', { context: { user: 'ann' } });
    const offered = triageModel.firstCall?.request.handoffs[0];
    expect(offered?.strictJsonSchema).toBe(true);
    expect(offered?.inputJsonSchema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { orderId: { type: 'string' }, reason: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      required: ['orderId', 'reason'],
      additionalProperties: false,
    });
  });

  it('validates the model’s arguments and passes them to onHandoff with the run context', async () => {
    const { triage, refundsModel, received } = refundScenario({ orderId: 'A1', reason: 'broken on arrival' });
    const result = await run(triage, 'refund please', { context: { user: 'ann' } });
    expect(result.finalOutput).toBe('refund started');
    expect(received).toHaveLength(1);
    expect(received[0]!.input).toEqual({ orderId: 'A1', reason: 'broken on arrival' });
    expect(received[0]!.context).toBe(result.runContext);
    expect(received[0]!.context.context.user).toBe('ann');
    expect(refundsModel.calls).toHaveLength(1);
  });

  it('drops the null a strict schema forces for an optional property', async () => {
    const { triage, received } = refundScenario({ orderId: 'A1', reason: null });
    await run(triage, 'refund please', { context: { user: 'ann' } });
    expect(received[0]!.input).toEqual({ orderId: 'A1' });
  });

  it('passes the schema’s output (transforms applied) to onHandoff', async () => {
    const seen: unknown[] = [];
    const target = new Agent({ name: 'Target', model: new ScriptedModel([[assistantMessage('ok')]]) });
    const h = handoff(target, {
      inputType: z.object({ amount: z.string().transform((s) => Number(s)) }),
      onHandoff: (_ctx, input) => void seen.push(input.amount + 1),
    });
    const triage = new Agent({ name: 'T', model: new ScriptedModel([[functionCall('transfer_to_Target', { amount: '41' })]]), handoffs: [h] });
    await run(triage, 'x');
    expect(seen).toEqual([42]);
  });

  it.each([
    ['empty arguments', '', /expected non-empty input/],
    ['whitespace arguments', '  ', /expected non-empty input/],
    ['arguments that are not JSON', '{"orderId": ', /invalid JSON/],
    ['arguments that fail the schema', { orderId: 7, reason: null }, /does not match its inputType: orderId/],
    ['arguments that are not an object', '[1]', /does not match its inputType/],
  ])('fails the run with ModelBehaviorError naming the handoff on %s', async (_label, args, message) => {
    const { triage, refundsModel, received } = refundScenario(args);
    const error = await run(triage, 'refund please', { context: { user: 'ann' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as Error).message).toContain('Handoff "transfer_to_Refunds"');
    expect((error as Error).message).toMatch(message);
    expect(received).toHaveLength(0);
    expect(refundsModel.calls).toHaveLength(0);
  });

  it('names the overridden tool name in its errors', async () => {
    const { triage } = refundScenario('', 'start_refund');
    await expect(run(triage, 'x', { context: { user: 'ann' } })).rejects.toThrow('Handoff "start_refund"');
  });

  it('accepts a JSON object schema as inputType', async () => {
    const seen: unknown[] = [];
    const target = new Agent({ name: 'Target', model: new ScriptedModel([[assistantMessage('ok')]]) });
    const schema: JsonObjectSchema = { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'], additionalProperties: false };
    const h = handoff(target, { inputType: schema, onHandoff: (_ctx, input) => void seen.push(input) });
    expect(h.inputJsonSchema).toEqual(schema);
    const triage = new Agent({ name: 'T', model: new ScriptedModel([[functionCall('transfer_to_Target', { topic: 'tax' })]]), handoffs: [h] });
    await run(triage, 'x');
    expect(seen).toEqual([{ topic: 'tax' }]);
  });

  it('requires onHandoff: UserError at construction', () => {
    const target = new Agent({ name: 'Target' });
    expect(() => handoff(target, { inputType: RefundInput } as never)).toThrow(UserError);
    expect(() => handoff(target, { inputType: RefundInput } as never)).toThrow(/handoff\("Target"\): `inputType` needs an `onHandoff` callback/);
  });

  it.each([
    ['a string', 'RefundInput', /expected a zod 4 \/ Standard Schema object or a JSON object schema/],
    ['a schema that is not an object', z.string(), /must describe an object/],
    ['a keyword strict mode cannot keep', { type: 'object', properties: { tag: { type: 'string', pattern: 'x', not: { const: 'y' } } }, required: ['tag'], additionalProperties: false }, /unsupported keyword `not`/],
  ])('rejects %s as inputType with UserError naming the handoff', (_label, inputType, message) => {
    const target = new Agent({ name: 'Target' });
    const make = () => handoff(target, { inputType: inputType as never, onHandoff: () => undefined });
    expect(make).toThrow(UserError);
    expect(make).toThrow(/^handoff\("Target"\) `inputType`: /);
    expect(make).toThrow(message);
  });
});
