import * as Effect from 'effect/Effect';
import type pg from 'pg';
import { OUTAGE_RETRY } from './outage.js';
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
/** Notified with the run id whenever an event of that run is written. */
export const EVENTS_CHANNEL = 'baton_dbos_run_events';

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

/** Through a database outage, a write waits and tries again (`OUTAGE_RETRY`). */
export function writeRunEvent(pool: pg.Pool, event: StoredRunEvent): Promise<void> {
  const write = Effect.tryPromise(async () => {
    await pool.query(`INSERT INTO ${TABLE} (run_id, revision, seq, event) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [
      event.runId,
      event.revision,
      event.seq,
      JSON.stringify(event.event),
    ]);
    await pool.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, event.runId]);
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
