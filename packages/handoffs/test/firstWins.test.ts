import { describe, expect, it } from 'vitest';
import { Agent, MemorySession, run } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { handoff } from '../src/index.js';
import { eventLabels, inputOf } from './helpers.js';

function callIdsIn(items: ReadonlyArray<{ type?: string; callId?: string | null }>): string[] {
  return items.flatMap((item) => (typeof item.callId === 'string' ? [item.callId] : []));
}

function threeAgents() {
  const billingModel = new ScriptedModel([[assistantMessage('billing answers')]]);
  const refundsModel = new ScriptedModel([]);
  const billing = new Agent({ name: 'Billing', model: billingModel });
  const refunds = new Agent({ name: 'Refunds', model: refundsModel });
  const refundsInvoked: unknown[] = [];
  const triageModel = new ScriptedModel([
    [
      functionCall('transfer_to_Billing', {}, { callId: 'call_first' }),
      functionCall('transfer_to_Refunds', {}, { callId: 'call_ignored' }),
    ],
  ]);
  const triage = new Agent({
    name: 'Triage',
    model: triageModel,
    handoffs: [billing, handoff(refunds, { onHandoff: (ctx) => void refundsInvoked.push(ctx) })],
  });
  return { triage, billing, billingModel, refundsModel, refundsInvoked };
}

describe('several handoff calls in one response', () => {
  it('takes the first; the ignored call never runs and is absent from history and new items', async () => {
    const { triage, billing, billingModel, refundsModel, refundsInvoked } = threeAgents();
    const result = await run(triage, 'help');

    expect(result.lastAgent).toBe(billing);
    expect(result.finalOutput).toBe('billing answers');
    expect(refundsInvoked).toEqual([]);
    expect(refundsModel.calls).toHaveLength(0);
    expect(callIdsIn(result.history)).toEqual(['call_first', 'call_first']);
    expect(callIdsIn(result.newItems.map((item) => item.rawItem as { callId?: string }))).toEqual(['call_first', 'call_first']);
    expect(callIdsIn(inputOf(billingModel.firstCall))).toEqual(['call_first', 'call_first']);
  });

  it('keeps the ignored call out of the session', async () => {
    const { triage } = threeAgents();
    const session = new MemorySession();
    await run(triage, 'help', { session });
    const items = await session.getItems();
    expect(callIdsIn(items)).toEqual(['call_first', 'call_first']);
    expect(items.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_result', 'message']);
  });

  it('streams only the accepted handoff', async () => {
    const { triage } = threeAgents();
    const streamed = await run(triage, 'help', { stream: true });
    const labels = await eventLabels(streamed);
    await streamed.completed;
    expect(labels).toEqual(['handoff_requested', 'handoff_occurred', 'agent_updated_stream_event', 'message_output_created']);
  });
});
