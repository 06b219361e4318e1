import type pg from 'pg';
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
/** The agent graph each workflow of a run started on (see `recordWorkflowStarts`). */
const GRAPHS = `${EVENTS_SCHEMA}.run_graphs`;
/** Notified with the run id whenever an event of that run is written, while someone listens (`EVENTS_LISTENING_LOCK`). */
export const EVENTS_CHANNEL = 'baton_dbos_run_events';
/**
 * The advisory lock (two-key form) a session holds, shared, for as long as it listens to
 * `EVENTS_CHANNEL`. An event write sends its notifications only when it cannot take this lock
 * exclusively: a `NOTIFY` costs every listening session of the database a wake-up (about 0.2 to
 * 0.4 ms of PostgreSQL's CPU a commit here, with four listening sessions), and most runs have no
 * follower. The write holds the lock it took until it commits, so a session that starts listening
 * meanwhile waits for that commit, and then reads the stored events (its subscribers read again once
 * it listens): no event is missed either way.
 */
export const EVENTS_LISTENING_LOCK = `hashtext('${EVENTS_CHANNEL}'), 1`;

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
  await client.query(`CREATE TABLE IF NOT EXISTS ${GRAPHS} (
    run_id text NOT NULL,
    revision integer NOT NULL,
    incarnation text NOT NULL,
    graph jsonb NOT NULL,
    PRIMARY KEY (run_id, revision, incarnation)
  )`);
}

export interface StoredRunEvent {
  readonly runId: string;
  readonly revision: number;
  readonly seq: number;
  readonly event: Json;
}

/** One event row: the event at position `seq` of the workflow `revision` of a run, of the run's `incarnation`. */
export interface RunEventRow {
  readonly runId: string;
  readonly revision: number;
  readonly seq: number;
  readonly incarnation: string;
  /** The event as JSON text, serialized once by its writer: batches splice it in as it is. */
  readonly json: string;
}

/**
 * Event rows of any number of runs in one statement and one commit: the insert, and one
 * notification per run that got a new row (a replay inserts nothing and wakes nobody) when a session
 * listens for run events (`EVENTS_LISTENING_LOCK`). Rows already there are left alone
 * (`ON CONFLICT DO NOTHING`). Answers whether a session listened (the lock is probed on every write,
 * rows inserted or not), so the writer knows whether anyone waits for its next rows. One attempt:
 * the caller decides what to retry.
 */
export async function insertRunEvents(pool: pg.Pool, rows: readonly RunEventRow[]): Promise<{ readonly listening: boolean }> {
  const { rows: [answer] } = await pool.query<{ listening: boolean }>(
    `WITH batch AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(run_id text, revision integer, seq integer, incarnation text, event jsonb)
    ), inserted AS (
      INSERT INTO ${TABLE} (run_id, revision, seq, event, incarnation) SELECT run_id, revision, seq, event, incarnation FROM batch
      ON CONFLICT DO NOTHING RETURNING run_id
    ), probe AS (SELECT NOT pg_try_advisory_xact_lock(${EVENTS_LISTENING_LOCK}) AS listening)
    SELECT listening, (SELECT count(pg_notify($2, run_id)) FROM (SELECT DISTINCT run_id FROM inserted) AS runs WHERE listening) AS notified FROM probe`,
    [`[${rows.map((row) => `{"run_id":${JSON.stringify(row.runId)},"revision":${row.revision},"seq":${row.seq},"incarnation":${JSON.stringify(row.incarnation)},"event":${row.json}}`).join(',')}]`, EVENTS_CHANNEL],
  );
  return { listening: answer?.listening ?? true };
}

/** What a workflow records when it starts: the agent graph it starts on, under its run, revision and incarnation. */
export interface WorkflowStart {
  readonly runId: string;
  readonly revision: number;
  readonly incarnation: string;
  readonly graph: Json;
}

/**
 * The first statement of any number of workflows, one round trip and one commit: records the agent
 * graph each workflow of a run (its revision, its incarnation) starts on, unless one is recorded
 * already (a replay: a worker took the run over), and answers the recorded ones, in the order
 * given; and removes what
 * the runs' earlier incarnations left (a deleted run whose id is used again), events and graphs.
 * The run ids go again as an array of their own: the planner knows how many rows a
 * `jsonb_to_recordset` makes only when it has run, and guessing a hundred it scanned both tables
 * whole (one workflow start read every event of every run: 9 ms of PostgreSQL's a run with 10,000
 * events); `run_id = ANY(ids)` with the ids known when it plans finds them by the primary key.
 * One attempt: the caller decides what to retry.
 */
export async function recordWorkflowStarts(pool: pg.Pool, starts: readonly WorkflowStart[]): Promise<(Json | undefined)[]> {
  const { rows } = await pool.query<{ i: number; graph: Json | null }>(
    `WITH batch AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(i integer, run_id text, revision integer, incarnation text, graph jsonb)
    ), cleared_events AS (DELETE FROM ${TABLE} AS e USING batch AS b WHERE e.run_id = ANY ($2::text[]) AND e.run_id = b.run_id AND e.incarnation <> b.incarnation),
    cleared_graphs AS (DELETE FROM ${GRAPHS} AS g USING batch AS b WHERE g.run_id = ANY ($2::text[]) AND g.run_id = b.run_id AND g.incarnation <> b.incarnation),
    inserted AS (
      INSERT INTO ${GRAPHS} (run_id, revision, incarnation, graph) SELECT run_id, revision, incarnation, graph FROM batch
      ON CONFLICT DO NOTHING RETURNING run_id, revision, incarnation, graph
    )
    SELECT b.i, coalesce(recorded.graph, fresh.graph) AS graph FROM batch AS b
    LEFT JOIN ${GRAPHS} AS recorded ON recorded.run_id = ANY ($2::text[]) AND (recorded.run_id, recorded.revision, recorded.incarnation) = (b.run_id, b.revision, b.incarnation)
    LEFT JOIN inserted AS fresh ON (fresh.run_id, fresh.revision, fresh.incarnation) = (b.run_id, b.revision, b.incarnation)`,
    [JSON.stringify(starts.map((start, i) => ({ i, run_id: start.runId, revision: start.revision, incarnation: start.incarnation, graph: start.graph }))), starts.map((start) => start.runId)],
  );
  const graphs: (Json | undefined)[] = starts.map(() => undefined);
  for (const row of rows) graphs[row.i] = row.graph ?? undefined;
  return graphs;
}

/** Removes every event (and recorded graph) of the run; returns how many events there were. */
export async function deleteRunEvents(pool: pg.Pool, runId: string): Promise<number> {
  const { rows } = await pool.query<{ events: string }>(
    `WITH graphs AS (DELETE FROM ${GRAPHS} WHERE run_id = $1), events AS (DELETE FROM ${TABLE} WHERE run_id = $1 RETURNING 1) SELECT count(*) AS events FROM events`,
    [runId],
  );
  return Number(rows[0]?.events ?? 0);
}

/** The events of the run's `incarnation` after `(revision, seq)`, in order. */
export async function readRunEvents(pool: pg.Pool, runId: string, incarnation: string, after: { revision: number; seq: number }): Promise<StoredRunEvent[]> {
  const { rows } = await pool.query<{ revision: number; seq: number; event: Json }>(
    `SELECT revision, seq, event FROM ${TABLE} WHERE run_id = $1 AND incarnation = $2 AND (revision, seq) > ($3, $4) ORDER BY revision, seq`,
    [runId, incarnation, after.revision, after.seq],
  );
  return rows.map((row) => ({ runId, revision: row.revision, seq: row.seq, event: row.event }));
}
