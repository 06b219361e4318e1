/**
 * The support desk's own tables, in the same PostgreSQL as the durable runs (any database would do).
 * - `support.refunds`: the refunds issued, one row per (run id, call id). The unique key is what
 *   makes the refund tool safe to run twice: the step in flight when a worker dies runs again.
 * - `support.tool_executions`: every time a tool body started, on which worker (duplicates included),
 *   so the example can show from outside the workers that nothing ran twice.
 * - `support.model_calls`: every call of the stand-in model, by order id and turn.
 */
import pg from 'pg';

const SCHEMA = `
CREATE SCHEMA IF NOT EXISTS support;
CREATE TABLE IF NOT EXISTS support.refunds (
  run_id text NOT NULL,
  call_id text NOT NULL,
  order_id text NOT NULL,
  amount_usd numeric NOT NULL,
  executor text NOT NULL,
  refunded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, call_id)
);
CREATE TABLE IF NOT EXISTS support.tool_executions (
  id serial PRIMARY KEY,
  run_id text NOT NULL,
  call_id text NOT NULL,
  tool text NOT NULL,
  executor text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS support.model_calls (
  id serial PRIMARY KEY,
  order_id text NOT NULL,
  turn integer NOT NULL,
  executor text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);`;

/** Creates the tables once, whoever comes first (workers starting together take turns on a lock). */
export async function ensureSupportTables(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtext('durable-support.schema'))");
    await client.query(SCHEMA);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** Creates the database when it does not exist yet (connecting to the server's `postgres` database). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      // Two processes creating it at once: the second one's "already exists" is fine.
      await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } finally {
    await admin.end();
  }
}

export interface ToolExecutionCount {
  readonly runId: string;
  readonly callId: string;
  readonly tool: string;
  readonly executions: number;
  readonly executors: string[];
}

/** How often each tool call's body ran, across all workers. */
export async function toolExecutionCounts(db: pg.Pool): Promise<ToolExecutionCount[]> {
  const { rows } = await db.query<{ run_id: string; call_id: string; tool: string; executions: number; executors: string[] }>(
    `SELECT run_id, call_id, tool, count(*)::int AS executions, array_agg(executor ORDER BY id) AS executors
       FROM support.tool_executions GROUP BY run_id, call_id, tool ORDER BY min(id)`,
  );
  return rows.map((row) => ({ runId: row.run_id, callId: row.call_id, tool: row.tool, executions: row.executions, executors: row.executors }));
}

export interface ModelCallCount {
  readonly orderId: string;
  readonly turn: number;
  readonly calls: number;
  readonly executors: string[];
}

export async function modelCallCounts(db: pg.Pool): Promise<ModelCallCount[]> {
  const { rows } = await db.query<{ order_id: string; turn: number; calls: number; executors: string[] }>(
    `SELECT order_id, turn, count(*)::int AS calls, array_agg(executor ORDER BY id) AS executors
       FROM support.model_calls GROUP BY order_id, turn ORDER BY min(id)`,
  );
  return rows.map((row) => ({ orderId: row.order_id, turn: row.turn, calls: row.calls, executors: row.executors }));
}

export interface RefundRow {
  readonly runId: string;
  readonly callId: string;
  readonly orderId: string;
  readonly amountUsd: number;
  readonly executor: string;
}

export async function refundsIssued(db: pg.Pool): Promise<RefundRow[]> {
  const { rows } = await db.query<{ run_id: string; call_id: string; order_id: string; amount_usd: string; executor: string }>(
    'SELECT run_id, call_id, order_id, amount_usd, executor FROM support.refunds ORDER BY refunded_at',
  );
  return rows.map((row) => ({ runId: row.run_id, callId: row.call_id, orderId: row.order_id, amountUsd: Number(row.amount_usd), executor: row.executor }));
}
