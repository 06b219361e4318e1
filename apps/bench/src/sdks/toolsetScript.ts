/**
 * The tool-set workload (issue 31): an agent with eight tools whose parameters look like a real
 * application's (nested objects, arrays, enums, nullable fields), and a model that calls two of them
 * at once on every turn with arguments that match. Per-turn work that grows with the number of tools
 * and items (schema conversion and validation, item copies) shows here, not in the one-tool loop.
 */
import { z } from 'zod';

export const TOOLSET_CALLS_PER_TURN = 2;

interface ToolsetEntry {
  name: string;
  description: string;
  parameters: z.ZodObject;
  /** Arguments the model sends on turn `turn` (matching `parameters`). */
  args(turn: number): unknown;
}

const customer = z.object({ id: z.string(), email: z.string() });

export const TOOLSET: ToolsetEntry[] = [
  {
    name: 'search_docs',
    description: 'Searches the documentation.',
    parameters: z.object({ query: z.string(), limit: z.number().int().min(1).max(20), filters: z.object({ section: z.enum(['guide', 'api', 'faq']), since: z.string().nullable() }) }),
    args: (turn) => ({ query: `refund policy ${turn}`, limit: 5, filters: { section: 'faq', since: null } }),
  },
  {
    name: 'create_ticket',
    description: 'Opens a support ticket.',
    parameters: z.object({ title: z.string(), priority: z.enum(['low', 'normal', 'high']), tags: z.array(z.string()), customer }),
    args: (turn) => ({ title: `Ticket ${turn}`, priority: 'normal', tags: ['billing', 'refund'], customer: { id: `c_${turn}`, email: 'ada@example.com' } }),
  },
  {
    name: 'get_weather',
    description: 'Current weather in a city.',
    parameters: z.object({ city: z.string(), unit: z.enum(['c', 'f']) }),
    args: () => ({ city: 'Lisbon', unit: 'c' }),
  },
  {
    name: 'lookup_order',
    description: 'Looks an order up by id.',
    parameters: z.object({ orderId: z.string(), lines: z.array(z.object({ sku: z.string(), qty: z.number().int() })) }),
    args: (turn) => ({ orderId: `o_${turn}`, lines: [{ sku: 'A-1', qty: 2 }, { sku: 'B-7', qty: 1 }] }),
  },
  {
    name: 'convert_currency',
    description: 'Converts an amount between currencies.',
    parameters: z.object({ amount: z.number(), from: z.string().length(3), to: z.string().length(3) }),
    args: (turn) => ({ amount: 10 + turn, from: 'EUR', to: 'USD' }),
  },
  {
    name: 'schedule_meeting',
    description: 'Schedules a meeting.',
    parameters: z.object({ attendees: z.array(z.string()).min(1), start: z.string(), minutes: z.number().int(), recurring: z.boolean() }),
    args: () => ({ attendees: ['ada@example.com', 'grace@example.com'], start: '2026-11-27T10:00:00Z', minutes: 30, recurring: false }),
  },
  {
    name: 'summarize',
    description: 'Summarizes a text.',
    parameters: z.object({ text: z.string(), style: z.union([z.literal('short'), z.literal('long')]) }),
    args: (turn) => ({ text: `A customer asked about order o_${turn} and its refund.`, style: 'short' }),
  },
  {
    name: 'update_profile',
    description: "Updates a user's profile.",
    parameters: z.object({ userId: z.string(), changes: z.object({ name: z.string().nullable(), locale: z.string().nullable() }) }),
    args: (turn) => ({ userId: `u_${turn}`, changes: { name: null, locale: 'pt-PT' } }),
  },
];

/** The calls of tool turn `turn` (1-based): two tools, rotating through the set. */
export function toolsetCalls(responseId: string, turn: number) {
  return Array.from({ length: TOOLSET_CALLS_PER_TURN }, (_, i) => {
    const entry = TOOLSET[((turn - 1) * TOOLSET_CALLS_PER_TURN + i) % TOOLSET.length]!;
    return {
      type: 'function_call' as const,
      id: `fc_${responseId}_${i}`,
      callId: `call_${responseId}_${i}`,
      name: entry.name,
      arguments: JSON.stringify(entry.args(turn)),
      status: 'completed' as const,
    };
  });
}
