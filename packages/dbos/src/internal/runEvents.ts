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
 *
 * A run id can be used again once its workflows are deleted (ids derived from business keys), so
 * each event also carries the run's incarnation (a UUID the client draws when it starts the run,
 * kept by its resumes): readers read only the current incarnation's events, and a workflow clears
 * older incarnations' events before it writes any.
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
    incarnation text NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, revision, seq)
  )`);
  // Tables made before incarnations: their events belong to runs started without one ('').
  await client.query(`ALTER TABLE ${TABLE} ADD COLUMN IF NOT EXISTS incarnation text NOT NULL DEFAULT ''`);
}

export interface StoredRunEvent {
  readonly runId: string;
  readonly revision: number;
  readonly seq: number;
  readonly event: Json;
}

/**
 * One statement, one commit: the insert, and the notification when a row was inserted (a replay
 * inserts nothing and wakes nobody). Through a database outage, a write waits and tries again
 * (`OUTAGE_RETRY`).
 */
export function writeRunEvent(pool: pg.Pool, event: StoredRunEvent, incarnation: string): Promise<void> {
  const write = Effect.tryPromise(() =>
    pool.query(
      `WITH inserted AS (
        INSERT INTO ${TABLE} (run_id, revision, seq, event, incarnation) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING run_id
      ) SELECT pg_notify($6, run_id) FROM inserted`,
      [event.runId, event.revision, event.seq, JSON.stringify(event.event), incarnation, EVENTS_CHANNEL],
    ),
  );
  return Effect.runPromise(write.pipe(Effect.retry(OUTAGE_RETRY), Effect.asVoid));
}

/** Removes the events of the run's earlier incarnations (a deleted run whose id is used again); through an outage, waits and tries again. */
export function clearEarlierIncarnations(pool: pg.Pool, runId: string, incarnation: string): Promise<void> {
  const clear = Effect.tryPromise(() => pool.query(`DELETE FROM ${TABLE} WHERE run_id = $1 AND incarnation <> $2`, [runId, incarnation]));
  return Effect.runPromise(clear.pipe(Effect.retry(OUTAGE_RETRY), Effect.asVoid));
}

/** Removes every event of the run; returns how many there were. */
export async function deleteRunEvents(pool: pg.Pool, runId: string): Promise<number> {
  const { rowCount } = await pool.query(`DELETE FROM ${TABLE} WHERE run_id = $1`, [runId]);
  return rowCount ?? 0;
}

/** The events of the run's `incarnation` after `(revision, seq)`, in order. */
export async function readRunEvents(pool: pg.Pool, runId: string, incarnation: string, after: { revision: number; seq: number }): Promise<StoredRunEvent[]> {
  const { rows } = await pool.query<{ revision: number; seq: number; event: Json }>(
    `SELECT revision, seq, event FROM ${TABLE} WHERE run_id = $1 AND incarnation = $2 AND (revision, seq) > ($3, $4) ORDER BY revision, seq`,
    [runId, incarnation, after.revision, after.seq],
  );
  return rows.map((row) => ({ runId, revision: row.revision, seq: row.seq, event: row.event }));
}
