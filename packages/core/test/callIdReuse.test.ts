import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, ModelBehaviorError, UserError, run, tool } from '../src/index.js';

/** A tool that records every input it really ran with. */
function recorded(name: string, needsApproval = false) {
  const ran: unknown[] = [];
  const t = tool({
    name,
    description: `${name} things`,
    parameters: z.object({ value: z.number() }),
    needsApproval,
    execute: (input) => {
      ran.push(input);
      return `${name} ran`;
    },
  });
  return { t, ran };
}

describe('one call id, one invocation', () => {
  it('fails with ModelBehaviorError when a later response reuses a committed call id for other arguments (numbers compared exactly)', async () => {
    const { t, ran } = recorded('count');
    const model = new ScriptedModel([
      [functionCall('count', '{"value":9007199254740992}', { callId: 'c1' })],
      [functionCall('count', '{"value":9007199254740993}', { callId: 'c1' })],
    ]);
    const agent = new Agent({ name: 'Counter', model, tools: [t] });
    await expect(run(agent, 'go')).rejects.toBeInstanceOf(ModelBehaviorError);
    expect(ran).toHaveLength(1);
  });

  it('tells -0 from 0', async () => {
    const { t, ran } = recorded('count');
    const model = new ScriptedModel([[functionCall('count', '{"value":-0}', { callId: 'c1' })], [functionCall('count', '{"value":0}', { callId: 'c1' })]]);
    await expect(run(new Agent({ name: 'Counter', model, tools: [t] }), 'go')).rejects.toBeInstanceOf(ModelBehaviorError);
    expect(ran).toHaveLength(1);
  });

  it('does not run the same invocation twice: a repeat with reordered keys and respelled numbers is left out of history', async () => {
    const two = tool({ name: 'pair', description: 'Pairs', parameters: z.object({ a: z.number(), b: z.number() }), execute: () => 'paired' });
    let runs = 0;
    const counted = { ...two, invoke: (...args: Parameters<typeof two.invoke>) => ((runs += 1), two.invoke(...args)) };
    const model = new ScriptedModel([
      [functionCall('pair', '{"a":1,"b":2}', { callId: 'c1' })],
      [functionCall('pair', '{"b":2.0,"a":1}', { callId: 'c1' })],
      [assistantMessage('done')],
    ]);
    const result = await run(new Agent({ name: 'Pairer', model, tools: [counted] }), 'go');
    expect(result.finalOutput).toBe('done');
    expect(runs).toBe(1);
    expect(result.newItems.filter((item) => item.type === 'tool_call_item')).toHaveLength(1);
  });

  it('fails before any tool runs when two calls of one response share an id, or a call has none', async () => {
    for (const ids of [['same', 'same'], ['', '']]) {
      const { t, ran } = recorded('count');
      const model = new ScriptedModel([[functionCall('count', { value: 1 }, { callId: ids[0]! }), functionCall('count', { value: 2 }, { callId: ids[1]! })]]);
      await expect(run(new Agent({ name: 'Counter', model, tools: [t] }), 'go')).rejects.toBeInstanceOf(ModelBehaviorError);
      expect(ran).toEqual([]);
    }
  });

  it('applies an approval only to the invocation it was made on: a reused id with other arguments fails before its siblings run', async () => {
    const { t, ran } = recorded('pay', true);
    const sibling = recorded('log');
    const model = new ScriptedModel([
      [functionCall('pay', { value: 1 }, { callId: 'p1' })],
      [functionCall('pay', { value: 1000 }, { callId: 'p1' }), functionCall('log', { value: 0 }, { callId: 'l1' })],
    ]);
    const agent = new Agent({ name: 'Payer', model, tools: [t, sibling.t] });
    const paused = await run(agent, 'go');
    paused.state.approve(paused.interruptions[0]!);
    await expect(run(agent, paused.state)).rejects.toBeInstanceOf(ModelBehaviorError);
    expect(ran).toEqual([{ value: 1 }]);
    expect(sibling.ran).toEqual([]);
  });

  it('a rejection binds its call id too, and a reused id naming another tool fails', async () => {
    const { t, ran } = recorded('pay', true);
    const other = recorded('refund');
    const model = new ScriptedModel([[functionCall('pay', { value: 1 }, { callId: 'p1' })], [functionCall('refund', { value: 1 }, { callId: 'p1' })]]);
    const agent = new Agent({ name: 'Payer', model, tools: [t, other.t] });
    const paused = await run(agent, 'go');
    paused.state.reject(paused.interruptions[0]!);
    await expect(run(agent, paused.state)).rejects.toBeInstanceOf(ModelBehaviorError);
    expect(ran).toEqual([]);
    expect(other.ran).toEqual([]);
  });
});

describe('pending approvals handed out', () => {
  it('are copies: editing one changes neither the waiting call nor another copy, and the decision binds to what was edited', async () => {
    const { t, ran } = recorded('pay', true);
    const model = new ScriptedModel([[functionCall('pay', { value: 1 }, { callId: 'p1', providerData: { nested: { list: ['a'] } } })], [assistantMessage('never')]]);
    const agent = new Agent({ name: 'Payer', model, tools: [t] });
    const paused = await run(agent, 'go');
    const [approval] = paused.interruptions;
    expect(paused.interruptions[0]).not.toBe(approval);
    expect(paused.state.getInterruptions()[0]!.rawItem).not.toBe(approval!.rawItem);
    paused.interruptions.splice(0);
    expect(paused.interruptions).toHaveLength(1);

    (approval!.rawItem.providerData as { nested: { list: string[] } }).nested.list.push('edited');
    (approval!.rawItem as { arguments: string }).arguments = '{"value":1000}';
    expect(paused.state.getInterruptions()[0]!.rawItem).toMatchObject({ arguments: '{"value":1}', providerData: { nested: { list: ['a'] } } });

    paused.state.approve(approval!);
    await expect(run(agent, paused.state)).rejects.toBeInstanceOf(ModelBehaviorError);
    expect(ran).toEqual([]);
  });

  it.each([
    ['a function', () => ({ callback: () => 'x' })],
    ['shared memory', () => ({ bytes: new Uint8Array(new SharedArrayBuffer(4)) })],
  ])('refuse a payload holding %s with a UserError instead of sharing it', async (_, providerData) => {
    const { t } = recorded('pay', true);
    const model = new ScriptedModel([[functionCall('pay', { value: 1 }, { callId: 'p1' })]]);
    const paused = await run(new Agent({ name: 'Payer', model, tools: [t] }), 'go');
    const step = paused.state._currentStep as { data: { interruptions: Array<{ rawItem: { providerData?: unknown } }> } };
    step.data.interruptions[0]!.rawItem.providerData = providerData();
    expect(() => paused.state.getInterruptions()).toThrow(UserError);
    expect(() => paused.interruptions).toThrow(/cannot be copied/);
  });
});
