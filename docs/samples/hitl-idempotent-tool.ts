import { tool } from '@baton/core';
import { z } from 'zod';

// A resumed or replayed run may run the step in flight at a crash again: deduplicate on (runId, callId).
const sent = new Map<string, string>();

export const pay = tool({
  name: 'pay',
  description: 'Pay an invoice',
  parameters: z.object({ to: z.string(), cents: z.number() }),
  needsApproval: true,
  execute: async ({ to, cents }, _context, details) => {
    const key = `${details?.runId}:${details?.toolCall.callId}`; // the same on every retry of this call
    const existing = sent.get(key);
    if (existing) return existing;
    const receipt = `paid ${cents} cents to ${to}`;
    sent.set(key, receipt);
    return receipt;
  },
});
