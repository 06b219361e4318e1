import { z } from 'zod';
import { Agent, tool, type AgentInputItem, type HandoffInputData, type HandoffInputFilter, type ReasoningItem, type RunStreamEvent } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, inputOf } from '@baton/testing';
import { handoff } from '../src/index.js';

export { inputOf };

export function reasoning(text: string): ReasoningItem {
  return { type: 'reasoning', content: [{ type: 'input_text', text }] };
}

export function userMessage(content: string): AgentInputItem {
  return { type: 'message', role: 'user', content };
}

/** The run items' types, for compact assertions. */
export function typesOf(items: ReadonlyArray<{ type?: string }>): Array<string | undefined> {
  return items.map((item) => item.type);
}

/** A filter that records what it received and returns it unchanged (or passes it through `then`). */
export function recordingFilter(then?: HandoffInputFilter): { filter: HandoffInputFilter; seen: HandoffInputData[] } {
  const seen: HandoffInputData[] = [];
  return {
    seen,
    filter: async (data) => {
      seen.push(data);
      return then ? then(data) : data;
    },
  };
}

/** Event labels of a streamed run: item events by name, other events by type; raw model events left out. */
export async function eventLabels(events: AsyncIterable<RunStreamEvent>): Promise<string[]> {
  const labels: string[] = [];
  for await (const event of events) {
    if (event.type === 'raw_model_stream_event') continue;
    labels.push(event.type === 'run_item_stream_event' ? event.name : event.type);
  }
  return labels;
}

/**
 * Triage looks an order up (reasoning + tool call), then says something and hands off to Billing
 * in the same response. The handoff uses `filter` when given. Billing answers.
 */
export function triageScenario(options: { filter?: HandoffInputFilter; billingSteps?: number } = {}) {
  const lookup = tool({
    name: 'lookup_order',
    description: 'Look an order up',
    parameters: z.object({ id: z.number() }),
    execute: ({ id }) => `order ${id}: paid twice`,
  });
  const billingModel = new ScriptedModel([[assistantMessage('Billing here: refund issued.')]]);
  const billing = new Agent({ name: 'Billing', instructions: 'You fix invoices.', model: billingModel });
  const triageModel = new ScriptedModel([
    [reasoning('I should look the order up'), functionCall('lookup_order', { id: 7 }, { callId: 'call_lookup' })],
    [assistantMessage('Let me pass you to billing.'), functionCall('transfer_to_Billing', {}, { callId: 'call_handoff' })],
  ]);
  const triage = new Agent({
    name: 'Triage',
    model: triageModel,
    tools: [lookup],
    handoffs: [options.filter ? handoff(billing, { inputFilter: options.filter }) : billing],
  });
  return { triage, billing, triageModel, billingModel };
}

/** A conversation carried over from earlier runs: system and user messages, an old tool call, reasoning, an answer. */
export const EARLIER_HISTORY: AgentInputItem[] = [
  { role: 'system', content: 'Be brief.' },
  { type: 'message', role: 'user', content: 'first question' },
  { type: 'function_call', callId: 'old_call', name: 'search', arguments: '{"q":"x"}', status: 'completed' },
  { type: 'function_call_result', callId: 'old_call', name: 'search', status: 'completed', output: 'old result' },
  reasoning('thinking about it'),
  assistantMessage('earlier answer'),
  { role: 'user', content: [{ type: 'input_text', text: 'second question' }] },
];

/**
 * The HandoffInputData a real run hands to a filter: `triageScenario` with the given input
 * (pre-handoff items: reasoning, tool call, tool output; new items: message, handoff call, handoff output).
 */
export async function captureHandoffData(input: string | AgentInputItem[] = EARLIER_HISTORY, context: object = {}): Promise<HandoffInputData> {
  const { filter, seen } = recordingFilter();
  const { triage } = triageScenario({ filter });
  const { run } = await import('@baton/core');
  await run(triage, input, { context });
  return seen[0]!;
}
