import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, run, tool, type HandoffContract, type HandoffInputFilter } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { handoff, keepLastItems, keepOnlyUserMessages, removeAllTools } from '../src/index.js';
import { inputOf, userMessage } from './helpers.js';

/** Wraps a filter to record each hop as "source->target". */
function hopRecorder() {
  const hops: string[] = [];
  const wrap =
    (filter: HandoffInputFilter): HandoffInputFilter =>
    (data) => {
      const output = data.newItems.find((item) => item.type === 'handoff_output_item');
      hops.push(output?.type === 'handoff_output_item' ? `${output.sourceAgent.name}->${output.targetAgent.name}` : '?');
      return filter(data);
    };
  return { hops, wrap };
}

const text = (t: string) => expect.objectContaining({ role: 'assistant', content: [{ type: 'output_text', text: t }] });

describe('a cascade A → B → C → A', () => {
  it('hands off three times, each hop filtered, and finishes with A', async () => {
    const { hops, wrap } = hopRecorder();
    const lookup = tool({ name: 'lookup', description: 'Look up', parameters: z.object({}), execute: () => 'found' });
    const aModel = new ScriptedModel([
      [assistantMessage('A: routing to B'), functionCall('transfer_to_B', {}, { callId: 'a_to_b' })],
      [assistantMessage('A: all done')],
    ]);
    const bModel = new ScriptedModel([
      [functionCall('lookup', {}, { callId: 'b_lookup' })],
      [assistantMessage('B: looked it up'), functionCall('transfer_to_C', {}, { callId: 'b_to_c' })],
    ]);
    const cModel = new ScriptedModel([[functionCall('transfer_to_A', {}, { callId: 'c_to_a' })]]);

    const cHandoffs: HandoffContract<any>[] = [];
    const c = new Agent({ name: 'C', model: cModel, handoffs: cHandoffs });
    const b = new Agent({ name: 'B', model: bModel, tools: [lookup], handoffs: [handoff(c, { inputFilter: wrap(keepLastItems(4)) })] });
    const a = new Agent({ name: 'A', model: aModel, handoffs: [handoff(b, { inputFilter: wrap(keepOnlyUserMessages) })] });
    cHandoffs.push(handoff(a)); // back to A through the runner-level filter

    const result = await run(a, 'complex question', { handoffInputFilter: wrap(removeAllTools) });

    expect(hops).toEqual(['A->B', 'B->C', 'C->A']);
    expect(result.lastAgent).toBe(a);
    expect(result.finalOutput).toBe('A: all done');
    // A → B: only what the user said
    expect(inputOf(bModel.calls[0])).toEqual([userMessage('complex question')]);
    // B → C: the last four items are the lookup output, B's message and the handoff pair; the lookup
    // output lost its call, so it is dropped too
    expect(inputOf(cModel.calls[0])).toEqual([
      text('B: looked it up'),
      expect.objectContaining({ type: 'function_call', callId: 'b_to_c' }),
      expect.objectContaining({ type: 'function_call_result', callId: 'b_to_c' }),
    ]);
    // C → A through the runner-level filter: no tool or handoff items left
    expect(inputOf(aModel.calls[1])).toEqual([text('B: looked it up')]);
    expect(result.newItems.map((item) => item.type)).toEqual(['message_output_item', 'message_output_item']);
    expect(aModel.calls).toHaveLength(2);
    expect(bModel.calls).toHaveLength(2);
    expect(cModel.calls).toHaveLength(1);
  });

  it('without filters, each agent sees the whole history so far', async () => {
    const cHandoffs: Agent<any, any>[] = [];
    const aModel = new ScriptedModel([[functionCall('transfer_to_B', {}, { callId: 'h1' })], [assistantMessage('A again')]]);
    const bModel = new ScriptedModel([[functionCall('transfer_to_C', {}, { callId: 'h2' })]]);
    const cModel = new ScriptedModel([[functionCall('transfer_to_A', {}, { callId: 'h3' })]]);
    const c = new Agent({ name: 'C', model: cModel, handoffs: cHandoffs });
    const b = new Agent({ name: 'B', model: bModel, handoffs: [c] });
    const a = new Agent({ name: 'A', model: aModel, handoffs: [b] });
    cHandoffs.push(a);

    const result = await run(a, 'q');
    expect(result.finalOutput).toBe('A again');
    expect(inputOf(aModel.calls[1]).map((item) => (item as { callId?: string }).callId ?? item.type)).toEqual(['message', 'h1', 'h1', 'h2', 'h2', 'h3', 'h3']);
    expect(
      result.newItems.flatMap((item) => (item.type === 'handoff_output_item' ? [`${item.sourceAgent.name}->${item.targetAgent.name}`] : [])),
    ).toEqual(['A->B', 'B->C', 'C->A']);
  });
});
