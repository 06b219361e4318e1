import { Agent, tool } from '@baton/core';
import { promptWithHandoffInstructions } from '@baton/handoffs';
import { z } from 'zod';
import { lookupOrder } from './orders.js';

/** Where a refund is paid (a file in the approval step, so the demo can count payments). */
export type RefundLedger = (entry: string) => void;

/**
 * The refund specialist: it looks orders up and issues refunds. Issuing a refund moves money, so
 * it needs a human's approval. Every process that runs or resumes its runs builds it the same way.
 */
export function refundSpecialist(model: string, ledger: RefundLedger = () => {}) {
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund an order to the customer.',
    parameters: z.object({ orderId: z.string(), amountEur: z.number() }),
    needsApproval: true,
    execute: ({ orderId, amountEur }, _context, details) => {
      // Deduplicate on run id + call id, as a payment API would.
      ledger(`${details?.runId}:${details?.toolCall.callId} refund ${orderId} EUR ${amountEur}`);
      return `Refunded EUR ${amountEur} for ${orderId}.`;
    },
  });
  return new Agent({
    name: 'Refund specialist',
    handoffDescription: 'Refunds for damaged or missing orders.',
    instructions: promptWithHandoffInstructions(
      'You handle refunds. Look the order up, then issue the refund for its full price. Answer in one or two sentences.',
    ),
    model,
    tools: [lookupOrder, issueRefund],
  });
}
