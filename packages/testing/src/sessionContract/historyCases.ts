import { expect } from 'vitest';
import type { AgentInputItem, Session } from '@baton/types';
import type { SessionCase } from './contractTypes.js';
import { call, user } from './items.js';

/** The runner's history rewrites and once-only transactions (the reference's `MemorySession` contract). */
interface TransactionSession extends Session {
  applyHistoryTransaction(args: unknown): Promise<void> | void;
  applyHistoryMutations(args: unknown): Promise<void> | void;
}

const asTransactional = (session: Session) => session as TransactionSession;
const withHistoryApis = (session: Session) =>
  typeof (session as Partial<TransactionSession>).applyHistoryTransaction === 'function' && typeof (session as Partial<TransactionSession>).applyHistoryMutations === 'function';

async function seeded(open: (id: string) => Promise<Session>, id: string, items: AgentInputItem[]): Promise<TransactionSession> {
  const session = await open(id);
  await session.addItems(items);
  return asTransactional(session);
}

const append = (operationId: string, items: AgentInputItem[]) => ({ operationId, transaction: { type: 'append_items', items } });
const replace = (operationId: string, expectedSuffix: AgentInputItem[], replacement: AgentInputItem[]) => ({
  operationId,
  transaction: { type: 'replace_suffix', expectedSuffix, replacement },
});

function historyCase(title: string, run: (open: (id: string) => Promise<TransactionSession>, newId: () => string) => Promise<void>): SessionCase {
  return {
    title,
    run: async ({ open, newId }) => {
      const probe = await open(newId());
      // Every session kind Baton ships supports these; a custom one without them fails here, saying so.
      expect(withHistoryApis(probe), 'the session has applyHistoryTransaction and applyHistoryMutations').toBe(true);
      await run(async (id) => asTransactional(await open(id)), newId);
    },
  };
}

export const historyCases: SessionCase[] = [
  historyCase('replaces a function call by its call id, dropping its duplicates (history mutation)', async (open, newId) => {
    const session = await open(newId());
    await session.addItems([user('start'), call('call-1', { ok: false }, 'old-1'), call('call-1', { duplicate: true }, 'old-2'), user('end')]);
    const replacement = call('call-1', { ok: true }, 'new');
    await session.applyHistoryMutations({ mutations: [{ type: 'replace_function_call', callId: 'call-1', replacement }] });
    expect(await session.getItems()).toEqual([user('start'), replacement, user('end')]);
  }),
  historyCase('applies an append transaction once per operation id', async (open, newId) => {
    const session = await seeded(open, newId(), [user('start')]);
    const appended = user('committed');
    await session.applyHistoryTransaction(append('op-append', [appended]));
    (appended as { content: unknown }).content = 'changed after the transaction';
    await session.addItems([user('later')]);
    await session.applyHistoryTransaction(append('op-append', [user('committed')]));
    expect(await session.getItems()).toEqual([user('start'), user('committed'), user('later')]);
  }),
  historyCase('replaces an exact suffix once per operation id', async (open, newId) => {
    const session = await seeded(open, newId(), [user('start'), user('blocked')]);
    const transaction = replace('op-replace', [user('blocked')], [user('accepted')]);
    await session.applyHistoryTransaction(transaction);
    await session.addItems([user('later')]);
    await session.applyHistoryTransaction(transaction);
    expect(await session.getItems()).toEqual([user('start'), user('accepted'), user('later')]);
  }),
  historyCase('refuses a suffix that no longer matches, without recording the operation', async (open, newId) => {
    const session = await seeded(open, newId(), [user('start')]);
    await expect(session.applyHistoryTransaction(replace('op-conflict', [user('different')], [user('accepted')]))).rejects.toThrow('suffix no longer matches');
    expect(await session.getItems()).toEqual([user('start')]);
    await session.applyHistoryTransaction(replace('op-conflict', [user('start')], [user('accepted')]));
    expect(await session.getItems()).toEqual([user('accepted')]);
  }),
  historyCase('refuses an operation id reused with a different transaction', async (open, newId) => {
    const session = await open(newId());
    await session.applyHistoryTransaction(append('op-reused', [user('first')]));
    await expect(session.applyHistoryTransaction(append('op-reused', [user('second')]))).rejects.toThrow('already applied with a different transaction');
    expect(await session.getItems()).toEqual([user('first')]);
  }),
  historyCase('records an empty append transaction', async (open, newId) => {
    const session = await open(newId());
    await session.applyHistoryTransaction(append('op-empty', []));
    await expect(session.applyHistoryTransaction(append('op-empty', [user('unexpected')]))).rejects.toThrow('already applied with a different transaction');
    expect(await session.getItems()).toEqual([]);
  }),
  historyCase('forgets applied operation ids when cleared', async (open, newId) => {
    const session = await open(newId());
    await session.applyHistoryTransaction(append('op-after-clear', [user('committed')]));
    await session.clearSession();
    await session.applyHistoryTransaction(append('op-after-clear', [user('committed')]));
    expect(await session.getItems()).toEqual([user('committed')]);
  }),
  historyCase('keeps operation ids per conversation', async (open, newId) => {
    const a = await open(newId());
    const b = await open(newId());
    await a.applyHistoryTransaction(append('op-shared-id', [user('for a')]));
    await b.applyHistoryTransaction(append('op-shared-id', [user('for b')]));
    expect(await a.getItems()).toEqual([user('for a')]);
    expect(await b.getItems()).toEqual([user('for b')]);
  }),
  historyCase('refuses invalid transactions before changing anything', async (open, newId) => {
    const session = await seeded(open, newId(), [user('start')]);
    await expect(session.applyHistoryTransaction({ operationId: '   ', transaction: { type: 'append_items', items: [] } })).rejects.toThrow(
      'operationId must be a non-empty string',
    );
    await expect(session.applyHistoryTransaction({ operationId: 'op-unknown', transaction: { type: 'unknown' } })).rejects.toThrow(
      'Unsupported session history transaction type',
    );
    await expect(session.applyHistoryTransaction({ operationId: 'op-null', transaction: null })).rejects.toThrow('transaction must be an object');
    await expect(session.applyHistoryTransaction(append('op-number', [42 as unknown as AgentInputItem]))).rejects.toThrow('items contain invalid or unsupported data');
    const withDate = user('dated');
    (withDate as { providerData?: unknown }).providerData = { at: new Date(0) };
    await expect(session.applyHistoryTransaction(append('op-date', [withDate]))).rejects.toThrow('items contain invalid or unsupported data');
    await expect(
      session.applyHistoryTransaction({ operationId: 'op-fields', transaction: { type: 'append_items', items: [user('x')], metadata: { attempt: 1 } } }),
    ).rejects.toThrow('append transaction fields are invalid');
    expect(await session.getItems()).toEqual([user('start')]);
    await session.applyHistoryTransaction(append('op-fields', [user('retry')]));
    expect(await session.getItems()).toEqual([user('start'), user('retry')]);
  }),
  historyCase('refuses typed arrays other than bytes, and a proxied items array, without recording the operation', async (open, newId) => {
    const session = await open(newId());
    const typed = user('typed array');
    (typed as { providerData?: unknown }).providerData = { values: new Uint16Array([300]) };
    for (const items of [[typed], new Proxy([user('proxied')], {})]) {
      await expect(session.applyHistoryTransaction(append('op-rejected-clone', items))).rejects.toThrow('items contain invalid or unsupported data');
    }
    await session.applyHistoryTransaction(append('op-rejected-clone', [user('accepted')]));
    expect(await session.getItems()).toEqual([user('accepted')]);
  }),
  historyCase('reads the transaction envelope once and keeps accessor errors out of its message', async (open, newId) => {
    const session = await open(newId());
    let reads = 0;
    const args = { transaction: { type: 'append_items', items: [user('once')] } } as Record<string, unknown>;
    Object.defineProperty(args, 'operationId', { enumerable: true, get: () => (++reads === 1 ? 'op-read-once' : 'changed') });
    await session.applyHistoryTransaction(args);
    expect(reads).toBe(1);
    const throwing = {};
    Object.defineProperty(throwing, 'operationId', {
      get: () => {
        throw new Error('api-key-secret');
      },
    });
    const error = await Promise.resolve(session.applyHistoryTransaction(throwing)).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toBe('Session history transaction arguments are invalid.');
    expect(await session.getItems()).toEqual([user('once')]);
  }),
];
