import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { NotificationListener } from '../src/internal/notificationListener.js';
import { createEventsTable, EVENTS_CHANNEL, EVENTS_LISTENING_LOCK, insertRunEvents, readRunEvents } from '../src/internal/runEvents.js';

// Run-event notifications are sent only while a session listens for them (README, "Commits per
// step"): a NOTIFY wakes every listening session of the database, and most runs have no follower.
// A session that starts listening while a write is in flight waits for its commit, then reads: no
// event is missed.
let postgres: PostgresServer;
let pool: pg.Pool;
/** A plain session listening to the channel without the listening lock: it sees what is sent, and asks for nothing. */
let onlooker: pg.Client;
const seen: string[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.connectionString, max: 4 });
  const client = await pool.connect();
  try {
    await createEventsTable(client);
  } finally {
    client.release();
  }
  onlooker = new pg.Client({ connectionString: postgres.connectionString });
  await onlooker.connect();
  onlooker.on('notification', (message) => seen.push(message.payload ?? ''));
  await onlooker.query(`LISTEN ${EVENTS_CHANNEL}`);
});

afterAll(async () => {
  await onlooker?.end();
  await pool?.end();
  postgres?.stop();
});

const row = (runId: string, seq: number) => ({ runId, revision: 0, seq, incarnation: 'inc-1', json: JSON.stringify({ type: 'test', seq }) });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A notification sent now reaches the onlooker within a round trip: a query on its session after the sender committed delivers it first. */
const settle = () => onlooker.query('SELECT 1');

/** A listener subscribed to `runId`'s events, resolved once its session listens (its first wake: subscribers read again then). */
async function listening(runId: string): Promise<{ listener: NotificationListener; wakes: () => number; next: () => Promise<void> }> {
  const listener = new NotificationListener(postgres.connectionString, [EVENTS_CHANNEL], { [EVENTS_CHANNEL]: EVENTS_LISTENING_LOCK });
  let count = 0;
  let waiting: (() => void) | undefined;
  const next = () => new Promise<void>((resolve) => (waiting = resolve));
  const first = next();
  listener.subscribe(EVENTS_CHANNEL, runId, () => {
    count++;
    waiting?.();
  });
  await first;
  return { listener, wakes: () => count, next };
}

describe('run-event notifications', () => {
  it('are sent while a session listens for run events, and not otherwise', async () => {
    await insertRunEvents(pool, [row('quiet-1', 0), row('quiet-2', 0)]);
    await settle();
    expect(seen).toEqual([]);

    const { listener, wakes, next } = await listening('loud-1');
    try {
      const woken = next();
      const before = wakes();
      await insertRunEvents(pool, [row('loud-1', 0), row('loud-2', 0)]);
      await woken;
      expect(wakes()).toBe(before + 1);
      await settle();
      expect(seen.sort()).toEqual(['loud-1', 'loud-2']);
    } finally {
      await listener.close();
    }

    // The listening session ended, and its lock with it.
    seen.length = 0;
    for (let i = 0; i < 100; i++) {
      const { rows } = await pool.query<{ held: boolean }>(`SELECT count(*) > 0 AS held FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ShareLock'`);
      if (!rows[0]!.held) break;
      await pause(50);
    }
    await insertRunEvents(pool, [row('quiet-3', 0)]);
    await settle();
    expect(seen).toEqual([]);
  });

  it('a session that starts listening during a write waits for its commit, and its subscribers then read the event', async () => {
    const writer = await pool.connect();
    let listener: NotificationListener | undefined;
    try {
      await writer.query('BEGIN');
      await insertRunEvents(writer as unknown as pg.Pool, [row('race-1', 0)]);
      // The write holds the lock uncommitted: the session cannot listen yet.
      let listened = false;
      const started = listening('race-1').then((listening) => {
        listened = true;
        listener = listening.listener;
        return listening;
      });
      await pause(300);
      expect(listened).toBe(false);
      await writer.query('COMMIT');
      await started;
      // Its first wake came after the commit: the read it makes then has the event.
      expect((await readRunEvents(pool, 'race-1', 'inc-1', { revision: -1, seq: -1 })).map((event) => event.seq)).toEqual([0]);
    } finally {
      writer.release();
      await listener?.close();
    }
  });
});
