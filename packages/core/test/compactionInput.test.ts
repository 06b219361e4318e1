import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, MemorySession, Usage, run, tool, type AgentInputItem, type CompactionItem } from '../src/index.js';

// A compaction item stands for everything before it: a turn's input starts at the latest one.
const compaction = (id: string): CompactionItem => ({ type: 'compaction', id, encrypted_content: `ciphertext ${id}` });
const user = (text: string): AgentInputItem => ({ type: 'message', role: 'user', content: text });
const lookup = tool({ name: 'lookup', description: '', parameters: z.object({}), execute: () => 'found' });

describe('model input from the latest compaction item', () => {
  it('leaves out what the input holds before it, on every turn', async () => {
    const model = new ScriptedModel([[functionCall('lookup', {}, { callId: 'c1' })], [assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model, tools: [lookup] }), [user('old'), compaction('cmp_1'), user('new')]);
    expect(model.calls[0]!.request.input).toEqual([compaction('cmp_1'), user('new')]);
    expect((model.calls[1]!.request.input as AgentInputItem[]).slice(0, 2)).toEqual([compaction('cmp_1'), user('new')]);
    expect(model.calls[1]!.request.input).toHaveLength(4);
  });

  it('a session history before the compaction item is not sent', async () => {
    const session = new MemorySession();
    await session.addItems([user('stored earlier')]);
    const model = new ScriptedModel([[assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model }), [compaction('cmp_1'), user('new')], { session });
    expect(model.calls[0]!.request.input).toEqual([compaction('cmp_1'), user('new')]);
  });

  it('a compaction the model returned starts the next turn', async () => {
    const model = new ScriptedModel([{ output: [compaction('cmp_model'), functionCall('lookup', {}, { callId: 'c1' })], usage: new Usage({ requests: 1 }) }, [assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model, tools: [lookup] }), [user('first')]);
    expect(model.calls[1]!.request.input).toEqual([
      compaction('cmp_model'),
      expect.objectContaining({ type: 'function_call', callId: 'c1' }),
      expect.objectContaining({ type: 'function_call_result', callId: 'c1' }),
    ]);
  });

  it('input without a compaction item is sent whole', async () => {
    const model = new ScriptedModel([[assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model }), [user('one'), user('two')]);
    expect(model.calls[0]!.request.input).toEqual([user('one'), user('two')]);
  });
});

describe('a session given input that holds a compaction item', () => {
  it('replaces its history from the compaction item on', async () => {
    const session = new MemorySession();
    await session.addItems([user('stored earlier')]);
    const model = new ScriptedModel([[assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model }), [user('discarded'), compaction('cmp_1'), user('kept')], { session });
    const items = await session.getItems();
    expect(items.slice(0, 2)).toEqual([compaction('cmp_1'), user('kept')]);
    expect(items.map((item) => item.type)).toEqual(['compaction', 'message', 'message']);
  });

  it('puts the previous history back when writing the new one fails', async () => {
    const session = new MemorySession();
    await session.addItems([user('stored earlier')]);
    const add = session.addItems.bind(session);
    let calls = 0;
    session.addItems = async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('store down');
      return add(items);
    };
    const model = new ScriptedModel([[assistantMessage('done')]]);
    await expect(run(new Agent({ name: 'A', model }), [compaction('cmp_1'), user('kept')], { session })).rejects.toThrow('store down');
    expect(await session.getItems()).toEqual([user('stored earlier')]);
  });
});
