import { expect } from 'vitest';
import type { AgentInputItem } from '@baton/types';
import type { SessionCase } from './contractTypes.js';
import { everyKind, user } from './items.js';

const notPersistent = (options: { persistent: boolean }) => (options.persistent ? undefined : 'the session keeps its items in the object');

/** What every session stores: `getItems(limit)`, `addItems`, `popItem`, `clearSession`, copies, ids, concurrency. */
export const storageCases: SessionCase[] = [
  {
    title: 'stores, reads, pops and clears items',
    async run({ open, newId }) {
      const id = newId();
      const session = await open(id);
      expect(await session.getSessionId()).toBe(id);
      expect(await session.getItems()).toEqual([]);
      const first = [user('one'), user('two')];
      await session.addItems(first);
      await session.addItems([user('three')]);
      expect(await session.getItems()).toEqual([...first, user('three')]);
      expect(await session.popItem()).toEqual(user('three'));
      expect(await session.getItems()).toEqual(first);
      await session.addItems([]);
      expect(await session.getItems()).toEqual(first);
      await session.clearSession();
      expect(await session.getItems()).toEqual([]);
      expect(await session.getItems(3)).toEqual([]);
      expect(await session.popItem()).toBeUndefined();
      await session.addItems([user('after clear')]);
      expect(await session.getItems()).toEqual([user('after clear')]);
    },
  },
  {
    title: 'reads the most recent items, oldest first, with a limit',
    async run({ open, newId }) {
      const session = await open(newId());
      const items = ['a', 'b', 'c', 'd'].map(user);
      await session.addItems(items);
      expect(await session.getItems(2)).toEqual(items.slice(2));
      expect(await session.getItems(1)).toEqual(items.slice(3));
      expect(await session.getItems(4)).toEqual(items);
      expect(await session.getItems(10)).toEqual(items);
      expect(await session.getItems(0)).toEqual([]);
    },
  },
  {
    title: 'hands out copies: changing items read, added or popped does not change the history',
    async run({ open, newId }) {
      const session = await open(newId());
      const added = user('start');
      await session.addItems([added]);
      (added as { content: unknown }).content = 'changed after add';
      const read = await session.getItems();
      (read[0] as { content: unknown }).content = 'changed after read';
      read.push(user('pushed'));
      expect(await session.getItems()).toEqual([user('start')]);
      await session.addItems([user('next')]);
      const popped = await session.popItem();
      (popped as { content: unknown }).content = 'changed after pop';
      expect(await session.getItems()).toEqual([user('start')]);
    },
  },
  {
    title: 'keeps every kind of item as it was written',
    async run({ open, reopen, newId }) {
      const session = await open(newId());
      await session.addItems(everyKind());
      expect(await (await reopen(session)).getItems()).toEqual(everyKind());
    },
  },
  {
    title: 'keeps conversations apart',
    async run({ open, newId }) {
      const a = await open(newId());
      const b = await open(newId());
      await a.addItems([user('for a')]);
      await b.addItems([user('for b')]);
      await b.clearSession();
      expect(await a.getItems()).toEqual([user('for a')]);
      expect(await b.getItems()).toEqual([]);
      expect(await a.getSessionId()).not.toBe(await b.getSessionId());
    },
  },
  {
    title: 'a second session object for the conversation reads and writes the same history',
    unsupported: notPersistent,
    async run({ open, newId }) {
      const id = newId();
      const first = await open(id);
      await first.addItems([user('written by the first')]);
      const second = await open(id);
      expect(await second.getItems()).toEqual([user('written by the first')]);
      await second.addItems([user('written by the second')]);
      expect(await first.popItem()).toEqual(user('written by the second'));
      expect(await second.getItems()).toEqual([user('written by the first')]);
    },
  },
  {
    title: 'concurrent appends lose nothing and keep each call’s items together, in order',
    async run({ open, reopen, newId }) {
      const session = await open(newId());
      const other = await reopen(session);
      const batch = (writer: string, n: number): AgentInputItem[] => [user(`${writer}${n}:1`), user(`${writer}${n}:2`), user(`${writer}${n}:3`)];
      await Promise.all(Array.from({ length: 20 }, (_, n) => (n % 2 ? session : other).addItems(batch(n % 2 ? 'a' : 'b', n))));
      const texts = (await session.getItems()).map((item) => ((item as { content: Array<{ text: string }> }).content[0]!.text));
      expect(texts).toHaveLength(60);
      for (let i = 0; i < texts.length; i += 3) {
        const [head] = texts[i]!.split(':');
        expect(texts.slice(i, i + 3)).toEqual([`${head}:1`, `${head}:2`, `${head}:3`]);
      }
      expect(new Set(texts.filter((_, i) => i % 3 === 0)).size).toBe(20);
    },
  },
];
