import { describe, expect, it } from 'vitest';
import { Agent, run, type RunStreamEvent } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { handoff, removeAllTools } from '../src/index.js';

describe('a streamed handoff', () => {
  it('emits handoff_requested, handoff_occurred, then agent_updated_stream_event, then the new agent speaks', async () => {
    const billing = new Agent({ name: 'Billing', model: new ScriptedModel([[assistantMessage('Billing here.')]]) });
    const triageModel = new ScriptedModel([[assistantMessage('One moment.'), functionCall('transfer_to_Billing', {}, { callId: 'h1' })]]);
    const triage = new Agent({ name: 'Triage', model: triageModel, handoffs: [handoff(billing, { inputFilter: removeAllTools })] });

    const streamed = await run(triage, 'hi', { stream: true });
    const events: RunStreamEvent[] = [];
    for await (const event of streamed) if (event.type !== 'raw_model_stream_event') events.push(event);
    await streamed.completed;

    expect(events.map((e) => (e.type === 'run_item_stream_event' ? `${e.name}:${e.item.agent.name}` : `${e.type}:${'agent' in e ? e.agent.name : ''}`))).toEqual([
      'message_output_created:Triage',
      'handoff_requested:Triage',
      'handoff_occurred:Triage',
      'agent_updated_stream_event:Billing',
      'message_output_created:Billing',
    ]);
    const occurred = events[2];
    expect(occurred?.type === 'run_item_stream_event' && occurred.item.type === 'handoff_output_item' && occurred.item.targetAgent).toBe(billing);
    expect(streamed.finalOutput).toBe('Billing here.');
    expect(streamed.currentAgent).toBe(billing);
  });

  it('announces every hop of a cascade', async () => {
    const c = new Agent({ name: 'C', model: new ScriptedModel([[assistantMessage('C done')]]) });
    const b = new Agent({ name: 'B', model: new ScriptedModel([[functionCall('transfer_to_C', {})]]), handoffs: [c] });
    const a = new Agent({ name: 'A', model: new ScriptedModel([[functionCall('transfer_to_B', {})]]), handoffs: [b] });
    const streamed = await run(a, 'go', { stream: true });
    const updates: string[] = [];
    for await (const event of streamed) if (event.type === 'agent_updated_stream_event') updates.push(event.agent.name);
    await streamed.completed;
    expect(updates).toEqual(['B', 'C']);
  });
});
