import * as Effect from 'effect/Effect';
import * as Schedule from 'effect/Schedule';
import type pg from 'pg';
import type { Json } from './workflowTypes.js';

/**
 * The run-item events of durable runs, for followers in other processes. Kept in a table of their
 * own, written by the workflow outside DBOS's step numbering: the stream consumer runs beside the
 * loop, so a DBOS stream write would take positions in timing order and break replay. Each event is
 * keyed by the workflow and its position in the run's (deterministic) event sequence, so a replay
 * writes nothing new (`ON CONFLICT DO NOTHING`). A notification wakes followers.
 */
export const EVENTS_SCHEMA = 'baton_dbos';
const TABLE = `${EVENTS_SCHEMA}.run_events`;
const CHANNEL = 'baton_dbos_run_events';

export async function createEventsTable(client: pg.ClientBase): Promise<void> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${EVENTS_SCHEMA}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (
    run_id text NOT NULL,
    revision integer NOT NULL,
    seq integer NOT NULL,
    event jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, revision, seq)
  )`);
}

export interface StoredRunEvent {
  readonly runId: string;
  readonly revision: number;
  readonly seq: number;
  readonly event: Json;
}

/** Through a database outage, writes wait and try again (backing off to every 2 s, for up to 10 minutes) as DBOS's own do. */
const OUTAGE_RETRY = Schedule.min([Schedule.exponential('100 millis'), Schedule.spaced('2 seconds')]).pipe(Schedule.upTo({ duration: '10 minutes' }));

export function writeRunEvent(pool: pg.Pool, event: StoredRunEvent): Promise<void> {
  const write = Effect.tryPromise(async () => {
    await pool.query(`INSERT INTO ${TABLE} (run_id, revision, seq, event) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [
      event.runId,
      event.revision,
      event.seq,
      JSON.stringify(event.event),
    ]);
    await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, event.runId]);
  });
  return Effect.runPromise(write.pipe(Effect.retry(OUTAGE_RETRY)));
}

/** Events after `(revision, seq)`, in order. */
export async function readRunEvents(pool: pg.Pool, runId: string, after: { revision: number; seq: number }): Promise<StoredRunEvent[]> {
  const { rows } = await pool.query<{ revision: number; seq: number; event: Json }>(
    `SELECT revision, seq, event FROM ${TABLE} WHERE run_id = $1 AND (revision, seq) > ($2, $3) ORDER BY revision, seq`,
    [runId, after.revision, after.seq],
  );
  return rows.map((row) => ({ runId, revision: row.revision, seq: row.seq, event: row.event }));
}

/** Calls `wake` whenever an event of `runId` is written (until `stop`). */
export async function listenForRunEvents(pool: pg.Pool, runId: string, wake: () => void): Promise<() => Promise<void>> {
  const client = await pool.connect();
  const onNotification = (message: pg.Notification) => {
    if (message.channel === CHANNEL && message.payload === runId) wake();
  };
  client.on('notification', onNotification);
  await client.query(`LISTEN ${CHANNEL}`);
  return async () => {
    client.off('notification', onNotification);
    await client.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
    client.release();
  };
}
