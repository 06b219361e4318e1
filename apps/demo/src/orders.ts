import { tool } from '@baton/core';
import { z } from 'zod';

/** The shop's orders (one is enough for the story). */
export const ORDERS: Record<string, { item: string; priceEur: number; status: string }> = {
  'A-17': { item: 'espresso machine', priceEur: 42, status: 'delivered 2 days ago; the customer reports it arrived broken' },
};

/** Reads an order; no side effects, so no approval. */
export const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Look up an order by id.',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ORDERS[orderId] ?? { error: `no order ${orderId}` },
});
