import { maxTablePrefixLength, prefixedTableNames, type SqlDialect } from '@baton/sessions/sql';
import type { WallClock } from '@baton/core';
import type { StoredRun, StoredRunStatus } from './runStateStore.js';

/** The options both SQL stores take. */
export interface SqlRunStateStoreOptions {
  /** Table names start with this (default `baton_`): letters, digits and `_`, at most 41 characters (PostgreSQL's identifier limit). */
  tablePrefix?: string;
  /** Where leases and timestamps read the time (default the system's; `yield* Clock.Clock` in an Effect test). */
  clock?: WallClock;
}

export interface TableNames {
  runs: string;
  /** The previous version's journal (tool outputs by call id): read, cleared, never written. */
  outputs: string;
  /** The step journal, added beside the others (`init()` creates it in an existing database). */
  steps: string;
}

const TABLE_SUFFIXES: Readonly<TableNames> = { runs: 'paused_runs', outputs: 'committed_tool_outputs', steps: 'committed_steps' };

/**
 * The longest `tablePrefix`: 41 characters, so that every table name fits PostgreSQL's 63-byte
 * identifiers. Cut to 63 bytes, two names with a long shared prefix (`…committed_tool_outputs`,
 * `…committed_steps`) would name one table. The same limit applies to SQLite, so a prefix works on both.
 */
export const MAX_TABLE_PREFIX_LENGTH = maxTablePrefixLength(TABLE_SUFFIXES);

/** SQL identifiers built from a prefix: letters, digits and `_` only, at most {@link MAX_TABLE_PREFIX_LENGTH} characters. */
export function tableNames(prefix: unknown = 'baton_'): TableNames {
  return prefixedTableNames(prefix, TABLE_SUFFIXES);
}

/**
 * The stores' tables, in either database. Tables of the previous version are kept as they are; the
 * step journal is a table beside them.
 */
export function runStoreDdl(t: TableNames, dialect: SqlDialect): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${t.runs} (
      run_id TEXT PRIMARY KEY,
      status TEXT NOT NULL CHECK (status IN ('paused', 'running', 'completed')),
      state TEXT NOT NULL,
      schema_version TEXT NOT NULL,
      revision INTEGER NOT NULL,
      claim_token TEXT,
      claimed_by TEXT,
      lease_expires_at ${dialect.bigint},
      updated_at ${dialect.bigint} NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS ${t.outputs} (
      run_id TEXT NOT NULL,
      call_id TEXT NOT NULL,
      item TEXT NOT NULL,
      committed_at ${dialect.bigint} NOT NULL,
      PRIMARY KEY (run_id, call_id)
    )`,
    `CREATE TABLE IF NOT EXISTS ${t.steps} (
      run_id TEXT NOT NULL,
      step_key TEXT NOT NULL,
      result TEXT NOT NULL,
      committed_at ${dialect.bigint} NOT NULL,
      PRIMARY KEY (run_id, step_key)
    )`,
  ];
}

/** A row of the runs table as either driver returns it (PostgreSQL's BIGINT columns as strings). */
export interface RunRow {
  run_id: string;
  status: StoredRunStatus;
  state: string;
  schema_version: string;
  revision: number;
  claimed_by: string | null;
  lease_expires_at: string | number | null;
  updated_at: string | number;
}

export function toStoredRun(row: RunRow): StoredRun {
  return {
    runId: row.run_id,
    status: row.status,
    state: row.state,
    schemaVersion: row.schema_version,
    revision: Number(row.revision),
    claimedBy: row.claimed_by ?? undefined,
    leaseExpiresAt: row.lease_expires_at === null ? undefined : new Date(Number(row.lease_expires_at)),
    updatedAt: new Date(Number(row.updated_at)),
  };
}
