import { z } from 'zod';
import { Agent, tool } from '@baton/core';
import { notify, streamingTool } from '@baton/streaming';

/** What the support agent's tools did, for the app's log and its tests. */
export interface SupportLedger {
  readonly refunds: Array<{ orderId: string; amountEur: number }>;
}

export interface SupportAgentOptions {
  /** The model name (resolved by the runner's model provider). */
  readonly model: string;
  /** Pause between two research steps, in ms. */
  readonly researchStepMs: number;
  readonly ledger: SupportLedger;
}

const ORDERS: Record<string, { items: string; totalEur: number; status: string }> = {
  '42': { items: '2 × Lisbon travel guide', totalEur: 48, status: 'delivered 3 days ago' },
  '7': { items: '1 × Porto city map', totalEur: 12.5, status: 'in transit, arriving tomorrow' },
};

/** Waits `ms`, or rejects as soon as the signal fires (a cancelled run stops at once). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The chat's agent: a shop's support assistant with three tools.
 * - `lookup_order`: a plain tool call, shown with its input and output;
 * - `refund`: needs the user's approval (Approve / Reject in the chat) before it runs;
 * - `research`: a streaming tool whose progress reaches the page live (`data-tool-progress` parts),
 *   while only its final answer enters the conversation.
 */
export function createSupportAgent({ model, researchStepMs, ledger }: SupportAgentOptions): Agent<unknown, 'text'> {
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Looks up an order by its number: what was ordered, the total and where it is.',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      const order = ORDERS[orderId];
      return order ? `Order ${orderId}: ${order.items}, €${order.totalEur.toFixed(2)}, ${order.status}.` : `There is no order ${orderId}.`;
    },
  });

  const refund = tool({
    name: 'refund',
    description: 'Refunds an order to the card it was paid with. A person must approve it first.',
    parameters: z.object({ orderId: z.string(), amountEur: z.number().positive() }),
    needsApproval: true,
    execute: ({ orderId, amountEur }) => {
      ledger.refunds.push({ orderId, amountEur });
      return `Refunded €${amountEur.toFixed(2)} for order ${orderId}.`;
    },
  });

  const research = streamingTool({
    name: 'research',
    description: 'Researches a topic in the knowledge base and the supplier catalogue, reporting progress as it goes.',
    parameters: z.object({ topic: z.string() }),
    async *execute({ topic }, _context, details) {
      const steps = ['Searching the knowledge base', 'Reading 3 supplier sheets', 'Comparing prices', 'Writing the summary'];
      for (let index = 0; index < steps.length; index += 1) {
        await sleep(researchStepMs, details.signal);
        yield notify({ pct: Math.round(((index + 1) / steps.length) * 100), label: steps[index]! }, 'progress');
      }
      return `Research on "${topic}": recycled cardboard mailers cost €0.42 each (3 suppliers compared); compostable bags €0.31.`;
    },
  });

  return new Agent({
    name: 'Support',
    instructions:
      'You are the support assistant of a small online shop. Look orders up with lookup_order. Refund with refund (the user approves it). ' +
      'Use research for questions that need looking into. Answer briefly.',
    model,
    tools: [lookupOrder, refund, research],
  });
}
