/**
 * Statements per durable run (issue 28), counted by PostgreSQL itself: `pg_stat_statements` on the
 * bench's throwaway server, enabled with `--statements` (it needs a restart of the server, before
 * anything connects, and adds a little work to every statement, so the timed figures of such a
 * bench run are not the plain ones). Only top-level statements count (what a client sends: a round
 * trip each); the ones a trigger or a function runs inside them do not. Counted per database, so
 * the DBOS-alone floor and the Baton runs, on two databases of one server, are told apart.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { PostgresServer } from '@baton/testing/postgres';

interface SqlClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}

/** Top-level statements a phase sent to one database: the total and Baton's own (those on its `baton_dbos` schema). */
export interface StatementCount {
  readonly total: number;
  readonly baton: number;
  /**
   * The statements by kind, most executed time first (PostgreSQL's own timing of each, planning
   * left out): the normalized text (cut to 140 characters), calls, rows and execution ms, all per
   * run once divided (`perRun`).
   */
  readonly byStatement?: readonly StatementKind[];
}

export interface StatementKind {
  readonly query: string;
  readonly calls: number;
  readonly rows: number;
  readonly execMs: number;
}

/** `counted` divided by `runs`: per-run figures. */
export function perRun(counted: StatementCount, runs: number): StatementCount {
  return {
    total: counted.total / runs,
    baton: counted.baton / runs,
    ...(counted.byStatement
      ? { byStatement: counted.byStatement.map((kind) => ({ query: kind.query, calls: kind.calls / runs, rows: kind.rows / runs, execMs: kind.execMs / runs })) }
      : {}),
  };
}

function sqlClient(connectionString: string): SqlClient {
  const { Client } = createRequire(fileURLToPath(import.meta.resolve('@baton/dbos')))('pg') as { Client: new (options: { connectionString: string }) => SqlClient };
  return new Client({ connectionString });
}

async function withClient<T>(connectionString: string, use: (client: SqlClient) => Promise<T>): Promise<T> {
  const client = sqlClient(connectionString);
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Loads `pg_stat_statements` into the server (a restart: call it before anything else connects) and creates its view. */
export async function enableStatementCounts(postgres: PostgresServer): Promise<void> {
  await withClient(postgres.connectionString, (client) => client.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`));
  postgres.pause();
  postgres.start();
  await withClient(postgres.connectionString, (client) => client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements'));
}

/** Forgets every count so far (all databases). */
export async function resetStatementCounts(postgres: PostgresServer): Promise<void> {
  await withClient(postgres.connectionString, (client) => client.query('SELECT pg_stat_statements_reset()'));
}

/** The top-level statements sent to `database` since the last reset, this reading's own left out. */
export async function statementCounts(postgres: PostgresServer, database: string): Promise<StatementCount> {
  return withClient(postgres.connectionString, async (client) => {
    const { rows } = await client.query(
      `SELECT coalesce(sum(calls), 0)::float8 AS total, coalesce(sum(calls) FILTER (WHERE query ILIKE '%baton_dbos.%'), 0)::float8 AS baton
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = $1 AND s.toplevel AND s.query NOT ILIKE '%pg_stat_statements%'`,
      [database],
    );
    const kinds = await client.query(
      `SELECT regexp_replace(s.query, '\\s+', ' ', 'g') AS query, sum(calls)::float8 AS calls, sum(s.rows)::float8 AS rows, sum(total_exec_time)::float8 AS exec_ms
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = $1 AND s.toplevel AND s.query NOT ILIKE '%pg_stat_statements%'
       GROUP BY 1 ORDER BY exec_ms DESC`,
      [database],
    );
    const byStatement = kinds.rows.map((row) => ({ query: String(row.query).slice(0, 140), calls: Number(row.calls), rows: Number(row.rows), execMs: Number(row.exec_ms) }));
    return { total: Number(rows[0]?.total ?? 0), baton: Number(rows[0]?.baton ?? 0), byStatement };
  });
}
