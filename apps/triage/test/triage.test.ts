import { describe, expect, it } from 'vitest';
import { scriptedModels } from '../src/scriptedModels.js';
import { runTriage } from '../src/workflow.js';
import type { SupportContext } from '../src/agents.js';

async function play(scenario: 'refund' | 'billing', question: string, context: SupportContext) {
  const models = scriptedModels(scenario);
  const lines: string[] = [];
  const outcome = await runTriage(models, question, context, (line) => lines.push(line));
  return { models, lines, outcome };
}

describe('triage example', () => {
  it('hands a refund over with its typed request, and the refunds agent settles it', async () => {
    const { models, lines, outcome } = await play('refund', 'My order A-17 arrived broken.', { customerId: 'c-1', verified: true });

    expect(outcome.lastAgent).toBe('Refunds');
    expect(outcome.finalOutput).toBe('Done: €59.90 for order A-17 is on its way back to your card.');
    expect(outcome.context.refund).toEqual({ orderId: 'A-17', reason: 'arrived broken' });
    expect(lines).toEqual([
      'user> My order A-17 arrived broken.',
      '[Triage] calls lookup_order({"orderId":"A-17"})',
      '[Triage] lookup_order returned {"total":"€59.90","status":"delivered"}',
      '[Triage] says: Sorry to hear that. Our refunds team will take it from here.',
      '[Triage] hands off with transfer_to_Refunds({"orderId":"A-17","reason":"arrived broken"})',
      '[Triage] handoff done: Triage -> Refunds',
      '   now talking to Refunds',
      '[Refunds] calls issue_refund({})',
      '[Refunds] issue_refund returned {"refunded":"€59.90","orderId":"A-17","reason":"arrived broken"}',
      '[Refunds] says: Done: €59.90 for order A-17 is on its way back to your card.',
      'final (Refunds)> Done: €59.90 for order A-17 is on its way back to your card.',
    ]);

    // Triage was offered both handoffs, the refund one with its strict schema.
    const offered = models.triage.firstCall?.request.handoffs ?? [];
    expect(offered.map((h) => h.toolName)).toEqual(['transfer_to_Billing', 'transfer_to_Refunds']);
    expect(offered[1]?.inputJsonSchema).toMatchObject({ required: ['orderId', 'reason'], additionalProperties: false });
    // The refunds agent saw the conversation without triage's tool calls, and the handed-over request in its instructions.
    const refundsFirst = models.refunds.firstCall?.request;
    expect(JSON.stringify(refundsFirst?.input)).not.toContain('lookup_order');
    expect(JSON.stringify(refundsFirst?.input)).not.toContain('function_call');
    expect(refundsFirst?.systemInstructions).toContain('Triage handed over order A-17: arrived broken.');
    for (const model of Object.values(models)) model.assertComplete();
  });

  it('sends a billing question to billing with a plain handoff; unverified customers are not offered refunds', async () => {
    const { models, lines, outcome } = await play('billing', 'How much was my last invoice?', { customerId: 'c-2', verified: false });

    expect(outcome.lastAgent).toBe('Billing');
    expect(outcome.finalOutput).toBe('Your last invoice was €12.00, paid by card on 3 May.');
    expect(outcome.context.refund).toBeUndefined();
    expect(models.triage.firstCall?.request.handoffs.map((h) => h.toolName)).toEqual(['transfer_to_Billing']);
    expect(lines.slice(1, 4)).toEqual(['[Triage] hands off with transfer_to_Billing({})', '[Triage] handoff done: Triage -> Billing', '   now talking to Billing']);
    // Billing has no filter: it sees the handoff call and its transfer message.
    expect(JSON.stringify(models.billing.firstCall?.request.input)).toContain('{\\"assistant\\":\\"Billing\\"}');
    for (const model of Object.values(models)) model.assertComplete();
  });
});
