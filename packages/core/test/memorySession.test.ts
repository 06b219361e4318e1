import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelError } from '@baton/testing';
import { Agent, MemorySession, run, tool, type AgentInputItem, type Session, type SessionHistoryTransactionArgs } from '../src/index.js';
import { inputOf } from './helpers.js';

const user = (content: string): AgentInputItem => ({ type: 'message', role: 'user', content });

describe('MemorySession', () => {
  it('implements the Session contract: add, read (all or the last n), pop, clear', async () => {
    const session: Session = new MemorySession({ sessionId: 'chat-1' });
    expect(await session.getSessionId()).toBe('chat-1');
    expect(await session.getItems()).toEqual([]);
    await session.addItems([user('a'), user('b')]);
    await session.addItems([user('c')]);
    expect(await session.getItems()).toEqual([user('a'), user('b'), user('c')]);
    expect(await session.getItems(2)).toEqual([user('b'), user('c')]);
    expect(await session.getItems(10)).toHaveLength(3);
    expect(await session.getItems(0)).toEqual([]);
    expect(await session.popItem()).toEqual(user('c'));
    expect(await session.getItems()).toEqual([user('a'), user('b')]);
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
    expect(await session.popItem()).toBeUndefined();
  });

  it('generates a distinct session id when none is given', async () => {
    const a = await new MemorySession().getSessionId();
    const b = await new MemorySession().getSessionId();
    expect(a).toMatch(/\S+/);
    expect(a).not.toBe(b);
  });

  it('copies items on the way in and out', async () => {
    const initial = [user('first')];
    const session = new MemorySession({ initialItems: initial });
    (initial[0] as { content: string }).content = 'changed outside';
    const added = user('second');
    await session.addItems([added]);
    (added as { content: string }).content = 'changed outside';
    const read = await session.getItems();
    (read[0] as { content: string }).content = 'changed by reader';
    expect(await session.getItems()).toEqual([user('first'), user('second')]);
  });
});

describe('a session in a run', () => {
  const clock = tool({ name: 'clock', description: '', parameters: z.object({}), execute: () => '12:00' });

  it('prepends the history to the input and appends the new input and generated items', async () => {
    const history = [user('My name is Ada.'), assistantMessage('Hello Ada.')];
    const session = new MemorySession({ initialItems: history });
    const model = new ScriptedModel([[functionCall('clock', {}, { callId: 'c1' })], [assistantMessage('It is noon, Ada.')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [clock] }), 'What time is it?', { session });

    expect(inputOf(model.calls[0])).toEqual([...history, user('What time is it?')]);
    const items = await session.getItems();
    expect(items.map((i) => i.type)).toEqual(['message', 'message', 'message', 'function_call', 'function_call_result', 'message']);
    expect(items.slice(0, 3)).toEqual([...history, user('What time is it?')]);
    expect(items.at(-1)).toEqual(assistantMessage('It is noon, Ada.'));
    expect(result.finalOutput).toBe('It is noon, Ada.');

    // A second run continues the conversation from the session alone.
    const next = new ScriptedModel([[assistantMessage('You are welcome.')]]);
    await run(new Agent({ name: 'A', model: next }), 'Thanks!', { session });
    expect(inputOf(next.calls[0])).toEqual([...items, user('Thanks!')]);
    expect(await session.getItems()).toHaveLength(8);
  });

  it('saves a streamed run once it completes', async () => {
    const session = new MemorySession();
    const model = new ScriptedModel([[assistantMessage('streamed reply')]]);
    const result = await run(new Agent({ name: 'A', model }), 'hi', { session, stream: true });
    for await (const _event of result) {
      // drain
    }
    await result.completed;
    expect(await session.getItems()).toEqual([user('hi'), assistantMessage('streamed reply')]);
  });

  it('accepts protocol items as the new input', async () => {
    const session = new MemorySession({ initialItems: [user('earlier')] });
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await run(new Agent({ name: 'A', model }), [user('now')], { session });
    expect(await session.getItems()).toEqual([user('earlier'), user('now'), assistantMessage('ok')]);
  });

  it('saves nothing for a run that fails', async () => {
    const session = new MemorySession({ initialItems: [user('earlier')] });
    const model = new ScriptedModel([modelError(new Error('down'))]);
    await expect(run(new Agent({ name: 'A', model }), 'hi', { session })).rejects.toThrow('down');
    expect(await session.getItems()).toEqual([user('earlier')]);
  });

  it('keeps a paused run’s session consistent across approval and resume', async () => {
    const transfer = tool({ name: 'transfer', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'sent' });
    const session = new MemorySession();
    const model = new ScriptedModel([[functionCall('transfer', {}, { callId: 'c1' })], [assistantMessage('Transfer done.')]]);
    const agent = new Agent({ name: 'A', model, tools: [transfer] });

    const paused = await run(agent, 'send it', { session });
    expect((await session.getItems()).map((i) => i.type)).toEqual(['message', 'function_call']);

    paused.state.approve(paused.interruptions[0]!);
    await run(agent, paused.state);
    const items = await session.getItems();
    // Every function_call has its result, in order, exactly once.
    expect(items.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_result', 'message']);
    expect(items[2]).toMatchObject({ type: 'function_call_result', callId: 'c1' });
    expect(items[3]).toEqual(assistantMessage('Transfer done.'));
  });
});

describe('MemorySession history transactions are checked and copied before anything changes', () => {
  const user = (text: string): AgentInputItem => ({ type: 'message', role: 'user', content: text }) as AgentInputItem;

  it.each<[string, unknown, string]>([
    ['a blank operation id', { operationId: ' ', transaction: { type: 'append_items', items: [] } }, 'operationId must be a non-empty string'],
    ['no transaction', { operationId: 'o', transaction: null }, 'transaction must be an object'],
    ['an unknown type', { operationId: 'o', transaction: { type: 'merge' } }, 'Unsupported session history transaction type'],
    ['an extra field', { operationId: 'o', transaction: { type: 'append_items', items: [], note: 1 } }, 'append transaction fields are invalid'],
    ['a date in an item', { operationId: 'o', transaction: { type: 'append_items', items: [{ ...user('x'), providerData: { at: new Date(0) } }] } }, 'items contain invalid or unsupported data'],
    ['a symbol in an item', { operationId: 'o', transaction: { type: 'append_items', items: [{ ...user('x'), providerData: { s: Symbol('secret') } }] } }, 'items contain invalid or unsupported data'],
  ])('%s is refused, the history and the operation id left unused', async (_label, args, message) => {
    const session = new MemorySession({ initialItems: [user('start')] });
    await expect(session.applyHistoryTransaction(args as never)).rejects.toThrow(message);
    expect(await session.getItems()).toEqual([user('start')]);
    await session.applyHistoryTransaction({ operationId: 'o', transaction: { type: 'append_items', items: [user('retry')] } });
    expect(await session.getItems()).toEqual([user('start'), user('retry')]);
  });

  it('keeps a copy of bytes, and a cleared session forgets applied operation ids', async () => {
    const session = new MemorySession();
    const bytes = new Uint8Array([3, 7]);
    await session.applyHistoryTransaction({ operationId: 'b', transaction: { type: 'append_items', items: [{ ...user('x'), providerData: { bytes } } as AgentInputItem] } });
    bytes[0] = 9;
    expect(((await session.getItems())[0] as unknown as { providerData: { bytes: Uint8Array } }).providerData.bytes[0]).toBe(3);
    await session.clearSession();
    await session.applyHistoryTransaction({ operationId: 'b', transaction: { type: 'append_items', items: [user('again')] } });
    expect(await session.getItems()).toEqual([user('again')]);
  });
});

describe('MemorySession logging and transaction envelopes', () => {
  const loggerWith = (flags: { dontLogModelData?: boolean; dontLogToolData?: boolean }) => {
    const lines: string[] = [];
    return { lines, logger: { debug: (message: string) => void lines.push(message), ...flags } };
  };

  it('writes item contents to its debug lines only when the logger allows both model and tool data', async () => {
    for (const flags of [{}, { dontLogModelData: true, dontLogToolData: false }, { dontLogModelData: false, dontLogToolData: true }]) {
      const { lines, logger } = loggerWith(flags);
      const session = new MemorySession({ logger, initialItems: [user('private words')] });
      await session.getItems();
      await session.addItems([user('more private words')]);
      await session.popItem();
      expect(lines).toHaveLength(3);
      expect(lines.join('\n')).not.toContain('private words');
    }
    const { lines, logger } = loggerWith({ dontLogModelData: false, dontLogToolData: false });
    const session = new MemorySession({ logger, initialItems: [user('visible words')] });
    await session.getItems();
    expect(lines.join('\n')).toContain('visible words');
  });

  it('refuses items the structured clone cannot copy, such as a Proxy, and keeps the operation id free', async () => {
    const session = new MemorySession();
    const proxied = new Proxy([user('behind a proxy')], {});
    await expect(session.applyHistoryTransaction({ operationId: 'op', transaction: { type: 'append_items', items: proxied } })).rejects.toThrow(
      'items contain invalid or unsupported data',
    );
    await session.applyHistoryTransaction({ operationId: 'op', transaction: { type: 'append_items', items: [user('kept')] } });
    expect(await session.getItems()).toEqual([user('kept')]);
  });

  it('reads operationId once per call and hides what a throwing accessor says', async () => {
    const session = new MemorySession();
    let reads = 0;
    const args = { transaction: { type: 'append_items' as const, items: [user('once')] } } as unknown as SessionHistoryTransactionArgs;
    Object.defineProperty(args, 'operationId', { enumerable: true, get: () => (++reads === 1 ? 'first' : 'second') });
    await session.applyHistoryTransaction(args);
    expect(reads).toBe(1);
    const throwing = {} as SessionHistoryTransactionArgs;
    Object.defineProperty(throwing, 'operationId', {
      get: () => {
        throw new Error('secret-token');
      },
    });
    const failure = await session.applyHistoryTransaction(throwing).catch((error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toBe('Session history transaction arguments are invalid.');
    expect(failure!.message).not.toContain('secret-token');
  });
});
