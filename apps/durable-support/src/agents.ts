/**
 * The support agent the workers serve: it looks orders up, and refunds a duplicate charge once a
 * human approved it. Every worker process builds the same agents (same names, same tools) for the
 * same `applicationVersion`.
 *
 * Durable runs promise that a committed step never runs again, but the step in flight when a worker
 * dies runs again on the worker that takes over (at least once). A read-only tool does not care; a
 * tool with an outside effect deduplicates on the run id and the call id (`details.runId`,
 * `details.toolCall.callId`), which are the same on every attempt: here a unique key in the refunds
 * table (with a payment provider, pass `${runId}:${callId}` as its idempotency key).
 */
import { Agent, tool } from '@baton/core';
import type pg from 'pg';
import { z } from 'zod';
import { SupportModel } from './model.js';

/** The shop's orders (a real agent would read them from your order service). */
export const ORDERS: Readonly<Record<string, { item: string; status: string; amountUsd: number; chargedTwice: boolean }>> = {
  '1001': { item: 'a blue kettle', status: 'shipped', amountUsd: 35, chargedTwice: false },
  '1002': { item: 'two mugs', status: 'out for delivery', amountUsd: 18, chargedTwice: false },
  '1003': { item: 'a tea set', status: 'delivered', amountUsd: 42, chargedTwice: true },
};

export interface SupportAgentOptions {
  /** The worker's executor id, recorded beside each tool execution and model call. */
  readonly executor: string;
  /** How long the stand-in model thinks once it has a tool result (the window for a crash). */
  readonly thinkMs?: number;
}

export function supportAgents(db: pg.Pool, options: SupportAgentOptions): { support: Agent<any, any> } {
  const executed = (details: { runId?: string; toolCall?: { callId: string } } | undefined, name: string) =>
    db.query('INSERT INTO support.tool_executions (run_id, call_id, tool, executor) VALUES ($1, $2, $3, $4)', [
      details?.runId ?? 'no-run-id',
      details?.toolCall?.callId ?? 'no-call-id',
      name,
      options.executor,
    ]);

  const lookupOrder = tool({
    name: 'lookup_order',
    description: "Look an order up: what was bought, where it is, what was charged.",
    parameters: z.object({ orderId: z.string() }),
    execute: async ({ orderId }, _context, details) => {
      await executed(details, 'lookup_order');
      const order = ORDERS[orderId];
      return order ? JSON.stringify({ orderId, ...order }) : `No order ${orderId}.`;
    },
  });

  const refundOrder = tool({
    name: 'refund_order',
    description: 'Refund an amount of an order to the card it was paid with.',
    parameters: z.object({ orderId: z.string(), amountUsd: z.number().positive() }),
    needsApproval: true,
    execute: async ({ orderId, amountUsd }, _context, details) => {
      await executed(details, 'refund_order');
      const runId = details?.runId;
      const callId = details?.toolCall?.callId;
      if (!runId || !callId) throw new Error('refund_order runs only inside a run (it deduplicates on the run id and call id).');
      // The unique key (run_id, call_id) makes a second attempt of this call a no-op that answers the
      // same: a refund is issued once however often the call is attempted.
      await db.query(
        `INSERT INTO support.refunds (run_id, call_id, order_id, amount_usd, executor) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (run_id, call_id) DO NOTHING`,
        [runId, callId, orderId, amountUsd, options.executor],
      );
      return JSON.stringify({ refunded: true, orderId, amountUsd });
    },
  });

  return {
    support: new Agent({
      name: 'Support',
      instructions:
        'You are the support desk of a tea shop. Look the order up before answering. Refund a duplicate ' +
        'charge when the customer asks for it; refunds wait for a human to approve them. Be brief.',
      model: new SupportModel({ db, executor: options.executor, ...(options.thinkMs === undefined ? {} : { thinkMs: options.thinkMs }) }),
      tools: [lookupOrder, refundOrder],
    }),
  };
}
