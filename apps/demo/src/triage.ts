import { Agent } from '@baton/core';
import { handoff, promptWithHandoffInstructions } from '@baton/handoffs';
import { z } from 'zod';

/** What triage tells the specialist it hands off to (the model fills it in). */
export const CaseSummary = z.object({ orderId: z.string(), reason: z.string() });
export type CaseSummary = z.infer<typeof CaseSummary>;

/**
 * The front desk: it answers nothing itself and hands each customer to a specialist, passing a
 * typed case summary. `specialists` are the agents it may hand off to.
 */
export function triageAgent(model: string, specialists: Agent<any, any>[], onCase: (to: string, summary: CaseSummary) => void) {
  return new Agent({
    name: 'Triage',
    instructions: promptWithHandoffInstructions(
      'You are the front desk of an online shop. Hand every request to the right specialist with a short case summary; do not answer yourself.',
    ),
    model,
    handoffs: specialists.map((specialist) =>
      handoff(specialist, { inputType: CaseSummary, onHandoff: (_context, summary) => onCase(specialist.name, summary) }),
    ),
  });
}

/** A second specialist, so that triage has a choice to make. */
export function shippingSpecialist(model: string) {
  return new Agent({
    name: 'Shipping specialist',
    handoffDescription: 'Where an order is, delivery dates, lost parcels.',
    instructions: 'You answer questions about deliveries in one sentence.',
    model,
  });
}
