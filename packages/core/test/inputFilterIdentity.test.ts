import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, Runner, tool, type AgentInputItem, type CallModelInputFilter } from '../src/index.js';

const next = tool({ name: 'next', description: 'Goes on', parameters: z.object({}), execute: () => 'went on' });

/** A filter that keeps what it was given, recording each call's input. */
function recordingFilter(preserveInputIdentity?: boolean) {
  const seen: AgentInputItem[][] = [];
  const filter: CallModelInputFilter = ({ modelData }) => {
    seen.push(modelData.input);
    return modelData;
  };
  if (preserveInputIdentity !== undefined) filter.preserveInputIdentity = preserveInputIdentity;
  return { filter, seen };
}

const threeTurns = () =>
  new ScriptedModel([
    [{ type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'hmm' }] }, { type: 'message', role: 'assistant', status: null, content: [{ type: 'output_text', text: 'on it' }] } as never, functionCall('next', {}, { callId: 'n1' })],
    [functionCall('next', {}, { callId: 'n2' })],
    [assistantMessage('done')],
  ]);

describe('callModelInputFilter.preserveInputIdentity', () => {
  it('hands the filter the same prepared object for the same history entry on every call, and the model a copy', async () => {
    const { filter, seen } = recordingFilter(true);
    const model = threeTurns();
    const userItem: AgentInputItem = { type: 'message', role: 'user', content: 'start' };
    await new Runner({ callModelInputFilter: filter, reasoningItemIdPolicy: 'omit' }).run(new Agent({ name: 'Stable', model, tools: [next] }), [userItem]);

    expect(seen).toHaveLength(3);
    expect(seen[1]).not.toBe(seen[0]);
    const [first, second, third] = seen;
    expect(first![0]).not.toBe(userItem);
    expect(second![0]).toBe(first![0]);
    expect(third![0]).toBe(first![0]);
    // The reasoning item (without its id, as the policy says) and the message (without its null status) are stable too.
    expect(third![1]).toBe(second![1]);
    expect(second![1]).not.toHaveProperty('id');
    expect(third![2]).toBe(second![2]);
    expect(second![2]).not.toHaveProperty('status');
    for (const call of model.calls) expect(call.request.input).not.toContain(first![0]);
  });

  it('keeps a string input’s user message stable too', async () => {
    const { filter, seen } = recordingFilter(true);
    await new Runner({ callModelInputFilter: filter }).run(new Agent({ name: 'Stable', model: threeTurns(), tools: [next] }), 'start');
    expect(seen[1]![0]).toBe(seen[0]![0]);
    expect(seen[2]![0]).toBe(seen[0]![0]);
  });

  it('without it, every call gets fresh copies', async () => {
    const { filter, seen } = recordingFilter();
    await new Runner({ callModelInputFilter: filter }).run(new Agent({ name: 'Copies', model: threeTurns(), tools: [next] }), 'start');
    expect(seen[1]![0]).not.toBe(seen[0]![0]);
    expect(seen[1]![0]).toEqual(seen[0]![0]);
  });
});
