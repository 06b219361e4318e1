/**
 * One agent graph for every provider setup: a triage agent that hands billing questions to a
 * specialist, an on-topic input guardrail backed by a checker agent (run in parallel with triage),
 * and a refund tool that needs a human's approval. Models are named, not constructed, so which
 * vendor runs which agent is decided by the model provider (a `MultiProvider`), in one place.
 */
import { Agent, tool } from '@baton/core';
import { guardrailFromAgent } from '@baton/guardrails';
import { promptWithHandoffInstructions } from '@baton/handoffs';
import { z } from 'zod';

/** Which model runs which agent, as prefixed names (`'anthropic/claude-sonnet-4-5'`). */
export interface ModelChoice {
  readonly triage: string;
  readonly specialist: string;
  readonly guardrail: string;
}

export type SetupName = 'openai' | 'anthropic' | 'mixed';

/** The three setups: one line (or `PROVIDER_SETUP`) switches between them. */
export const SETUPS: Readonly<Record<SetupName, ModelChoice>> = {
  openai: { triage: 'openai/gpt-4.1-mini', specialist: 'openai/gpt-4.1', guardrail: 'openai/gpt-4.1-nano' },
  anthropic: { triage: 'anthropic/claude-haiku-4-5', specialist: 'anthropic/claude-sonnet-4-5', guardrail: 'anthropic/claude-haiku-4-5' },
  // A cheap, fast model for the guardrail; another vendor for the specialist.
  mixed: { triage: 'openai/gpt-4.1-mini', specialist: 'anthropic/claude-sonnet-4-5', guardrail: 'google/gemini-2.5-flash-lite' },
};

export const CHECKER_INSTRUCTIONS = 'Decide whether the message is a customer-support request about an order, a bill or our product.';
export const SPECIALIST_INSTRUCTIONS = 'You are the billing specialist. Refund duplicate charges with refund_order, then confirm in one sentence.';

export function supportAgents(models: ModelChoice) {
  const refundOrder = tool({
    name: 'refund_order',
    description: 'Refund an amount to the customer for an order.',
    parameters: z.object({ orderId: z.string(), amountUsd: z.number() }),
    needsApproval: true,
    execute: ({ orderId, amountUsd }) => `Refunded $${amountUsd.toFixed(2)} for order ${orderId}.`,
  });
  const checker = new Agent({
    name: 'Topic check',
    instructions: CHECKER_INSTRUCTIONS,
    model: models.guardrail,
    outputType: z.object({ onTopic: z.boolean(), reason: z.string() }),
  });
  const specialist = new Agent({
    name: 'Billing specialist',
    handoffDescription: 'Refunds, duplicate charges and invoices.',
    instructions: SPECIALIST_INSTRUCTIONS,
    model: models.specialist,
    tools: [refundOrder],
  });
  const triage = new Agent({
    name: 'Triage',
    instructions: promptWithHandoffInstructions('Route the customer to the right specialist.'),
    model: models.triage,
    handoffs: [specialist],
    inputGuardrails: [guardrailFromAgent(checker, { name: 'On-topic check', tripwire: (verdict) => !verdict.onTopic })],
  });
  return { triage, specialist, checker };
}
