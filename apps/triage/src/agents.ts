import { z } from 'zod';
import { Agent, tool, type Model } from '@baton/core';
import { handoff, promptWithHandoffInstructions, removeAllTools } from '@baton/handoffs';

/** What the triage agent must fill in to hand a refund over. */
export const RefundRequest = z.object({
  orderId: z.string().describe('The order to refund, e.g. A-17'),
  reason: z.string().describe('Why the customer wants a refund, in a few words'),
});
export type RefundRequest = z.infer<typeof RefundRequest>;

/** The run's context: who we are talking to, and the refund request once triage has handed it over. */
export interface SupportContext {
  customerId: string;
  verified: boolean;
  refund?: RefundRequest;
}

export interface SupportModels {
  triage: Model;
  billing: Model;
  refunds: Model;
}

const ORDERS: Record<string, { total: string; status: string }> = {
  'A-17': { total: '€59.90', status: 'delivered' },
  'B-02': { total: '€12.00', status: 'in transit' },
};

const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Look an order up by id',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ORDERS[orderId] ?? { error: `no order ${orderId}` },
});

const issueRefund = tool({
  name: 'issue_refund',
  description: 'Refund the order handed over by triage',
  parameters: z.object({}),
  execute: (_input, runContext) => {
    const refund = (runContext.context as SupportContext).refund;
    if (!refund) return { error: 'no refund request was handed over' };
    return { refunded: ORDERS[refund.orderId]?.total ?? 'nothing', orderId: refund.orderId, reason: refund.reason };
  },
});

/** Triage routes to billing (any question about invoices) or to refunds (with a typed request). */
export function supportAgents(models: SupportModels) {
  const billing = new Agent<SupportContext>({
    name: 'Billing',
    handoffDescription: 'Invoices, charges and payment methods.',
    instructions: promptWithHandoffInstructions('You answer questions about invoices and charges.'),
    model: models.billing,
  });
  const refunds = new Agent<SupportContext>({
    name: 'Refunds',
    handoffDescription: 'Refunds for orders that went wrong.',
    instructions: (ctx) =>
      promptWithHandoffInstructions(
        `You refund orders. Triage handed over order ${ctx.context.refund?.orderId ?? '(none)'}: ${ctx.context.refund?.reason ?? ''}.`,
      ),
    model: models.refunds,
    tools: [issueRefund],
  });
  const triage = new Agent<SupportContext>({
    name: 'Triage',
    instructions: promptWithHandoffInstructions('Find out what the customer needs and hand them to the right agent.'),
    model: models.triage,
    tools: [lookupOrder],
    handoffs: [
      billing,
      handoff(refunds, {
        inputType: RefundRequest,
        onHandoff: (ctx, request) => {
          ctx.context.refund = request;
        },
        // The refunds agent gets the conversation without triage's tool calls.
        inputFilter: removeAllTools,
        // Only verified customers can be refunded.
        isEnabled: ({ runContext }) => runContext.context.verified,
      }),
    ],
  });
  return { triage, billing, refunds };
}
