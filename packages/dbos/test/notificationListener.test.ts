import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { NotificationListener } from '../src/internal/notificationListener.js';

// The one listening connection of a client or a worker (README, "Reading the result"): a channel is
// listened to from its first subscriber on, also when that comes while the session is already open.
let postgres: PostgresServer;
let notifier: pg.Client;

beforeAll(async () => {
  postgres = await startPostgres();
  notifier = new pg.Client({ connectionString: postgres.connectionString });
  await notifier.connect();
});

afterAll(async () => {
  await notifier?.end();
  postgres?.stop();
});

/** Counts the calls of a wake, and waits for the next. */
function counter() {
  let count = 0;
  let next: (() => void) | undefined;
  return {
    wake: () => {
      count++;
      next?.();
    },
    get count() {
      return count;
    },
    next: (ms = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('not woken')), ms);
        next = () => {
          clearTimeout(timer);
          next = undefined;
          resolve();
        };
      }),
  };
}

it('wakes the subscribers of a channel first subscribed to while the session is open, and only them', async () => {
  const listener = new NotificationListener(postgres.connectionString, ['channel_a', 'channel_b']);
  try {
    const a = counter();
    const opened = a.next();
    listener.subscribe('channel_a', 'run-1', a.wake);
    await opened; // woken once the session listens

    const b = counter();
    const listening = b.next();
    listener.subscribe('channel_b', 'run-1', b.wake);
    await listening; // woken once channel_b is listened to: what came before reached nobody

    const before = { a: a.count, b: b.count };
    const woken = b.next();
    await notifier.query(`SELECT pg_notify('channel_b', 'run-1')`);
    await woken;
    const again = a.next();
    await notifier.query(`SELECT pg_notify('channel_a', 'run-1')`);
    await again;
    expect({ a: a.count - before.a, b: b.count - before.b }).toEqual({ a: 1, b: 1 });
    expect(() => listener.subscribe('channel_c', 'run-1', () => {})).toThrow(/not one of its channels/);
  } finally {
    await listener.close();
  }
});
