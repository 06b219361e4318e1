import { systemClock, type WallClock } from '@baton/core';
import {
  claimLost,
  newClaimToken,
  requireLease,
  requireRunId,
  saveRefusal,
  schemaVersionOf,
  stateText,
  tableNames,
  parseStepResult,
  type ClaimOptions,
  type CommittedStep,
  type CommittedToolOutput,
  type RunClaim,
  type RunStateStore,
  type StoredRun,
  type StoredRunStatus,
  type TableNames,
} from './runStateStore.js';

interface Statement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** What the store needs of a `better-sqlite3` `Database` (any compatible driver works). */
export interface SqliteDatabase {
  prepare(sql: string): Statement;
  exec(sql: string): unknown;
  pragma(source: string): unknown;
  transaction(fn: (...args: any[]) => any): { immediate(...args: any[]): any };
}

export interface SqliteRunStateStoreOptions {
  /** Table names start with this (default `baton_`): letters, digits and `_`, at most 41 characters (PostgreSQL's identifier limit). */
  tablePrefix?: string;
  /** Where leases and timestamps read the time (default the system's; `yield* Clock.Clock` in an Effect test). */
  clock?: WallClock;
  /** How long a connection waits for another one's write lock (sets `busy_timeout`; default 5000 ms). */
  busyTimeoutMs?: number;
}

interface RunRow {
  run_id: string;
  status: StoredRunStatus;
  state: string;
  schema_version: string;
  revision: number;
  claimed_by: string | null;
  lease_expires_at: number | null;
  updated_at: number;
}

/**
 * A `RunStateStore` in SQLite through `better-sqlite3` (pass the `Database`). Claims are a single
 * conditional `UPDATE`, writes under a claim run in `BEGIN IMMEDIATE` transactions that check the
 * claim token, so workers in several processes sharing the file resume each run once.
 */
export class SqliteRunStateStore implements RunStateStore {
  readonly #clock: WallClock;
  readonly #db: SqliteDatabase;
  readonly #t: TableNames;

  constructor(db: SqliteDatabase, options: SqliteRunStateStoreOptions = {}) {
    this.#db = db;
    this.#t = tableNames(options.tablePrefix);
    this.#clock = options.clock ?? systemClock;
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
  }

  async init(): Promise<void> {
    const { runs, outputs, steps } = this.#t;
    // Tables of the previous version are kept as they are; the step journal is a table beside them.
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS ${runs} (
        run_id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('paused', 'running', 'completed')),
        state TEXT NOT NULL,
        schema_version TEXT NOT NULL,
        revision INTEGER NOT NULL,
        claim_token TEXT,
        claimed_by TEXT,
        lease_expires_at INTEGER,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS ${outputs} (
        run_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        item TEXT NOT NULL,
        committed_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, call_id)
      );
      CREATE TABLE IF NOT EXISTS ${steps} (
        run_id TEXT NOT NULL,
        step_key TEXT NOT NULL,
        result TEXT NOT NULL,
        committed_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, step_key)
      );
    `);
  }

  async save(runId: string, state: string | { toString(): string }, options: { expectedRevision?: number } = {}): Promise<StoredRun> {
    requireRunId(runId);
    const text = stateText(state);
    const version = schemaVersionOf(runId, text);
    const { runs } = this.#t;
    const write = this.#db.transaction(() => {
      const row = this.#db.prepare(`SELECT status, revision FROM ${runs} WHERE run_id = ?`).get(runId) as Pick<RunRow, 'status' | 'revision'> | undefined;
      const refusal = saveRefusal(runId, row, options.expectedRevision);
      if (refusal) throw refusal;
      const now = this.#clock.currentTimeMillisUnsafe();
      if (row) {
        this.#db
          .prepare(`UPDATE ${runs} SET state = ?, schema_version = ?, revision = revision + 1, updated_at = ? WHERE run_id = ?`)
          .run(text, version, now, runId);
      } else {
        this.#db
          .prepare(`INSERT INTO ${runs} (run_id, status, state, schema_version, revision, updated_at) VALUES (?, 'paused', ?, ?, 1, ?)`)
          .run(runId, text, version, now);
      }
      return this.#row(runId)!;
    });
    return toStoredRun(write.immediate() as RunRow);
  }

  async load(runId: string): Promise<StoredRun | undefined> {
    const row = this.#row(runId);
    return row ? toStoredRun(row) : undefined;
  }

  async list(options: { status?: StoredRunStatus } = {}): Promise<StoredRun[]> {
    const { runs } = this.#t;
    const rows =
      options.status === undefined
        ? this.#db.prepare(`SELECT * FROM ${runs} ORDER BY updated_at, run_id`).all()
        : this.#db.prepare(`SELECT * FROM ${runs} WHERE status = ? ORDER BY updated_at, run_id`).all(options.status);
    return (rows as RunRow[]).map(toStoredRun);
  }

  async delete(runId: string): Promise<boolean> {
    const remove = this.#db.transaction(() => {
      this.#clearJournal(runId);
      return this.#db.prepare(`DELETE FROM ${this.#t.runs} WHERE run_id = ?`).run(runId).changes > 0;
    });
    return remove.immediate() as boolean;
  }

  async claim(runId: string, options: ClaimOptions): Promise<RunClaim | undefined> {
    const leaseMs = requireLease(options.leaseMs);
    const token = newClaimToken();
    const now = this.#clock.currentTimeMillisUnsafe();
    const row = this.#db
      .prepare(
        `UPDATE ${this.#t.runs} SET status = 'running', claim_token = ?, claimed_by = ?, lease_expires_at = ?, updated_at = ?
         WHERE run_id = ? AND (status = 'paused' OR (status = 'running' AND lease_expires_at < ?))
         RETURNING state, revision, lease_expires_at`,
      )
      .get(token, options.workerId, now + leaseMs, now, runId, now) as Pick<RunRow, 'state' | 'revision' | 'lease_expires_at'> | undefined;
    if (!row) return undefined;
    return { runId, token, workerId: options.workerId, state: row.state, revision: row.revision, leaseExpiresAt: new Date(row.lease_expires_at!) };
  }

  async renew(claim: RunClaim, leaseMs?: number): Promise<RunClaim> {
    const until = this.#clock.currentTimeMillisUnsafe() + requireLease(leaseMs);
    const { changes } = this.#db
      .prepare(`UPDATE ${this.#t.runs} SET lease_expires_at = ? WHERE run_id = ? AND claim_token = ? AND status = 'running'`)
      .run(until, claim.runId, claim.token);
    if (changes === 0) throw claimLost(claim.runId);
    return { ...claim, leaseExpiresAt: new Date(until) };
  }

  async commitStep(claim: RunClaim, step: CommittedStep): Promise<void> {
    const commit = this.#db.transaction(() => {
      this.#requireHeld(claim);
      this.#db
        .prepare(`INSERT INTO ${this.#t.steps} (run_id, step_key, result, committed_at) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, step_key) DO NOTHING`)
        .run(claim.runId, step.key, JSON.stringify(step.result), this.#clock.currentTimeMillisUnsafe());
    });
    commit.immediate();
  }

  async committedSteps(runId: string): Promise<CommittedStep[]> {
    const rows = this.#db.prepare(`SELECT step_key, result FROM ${this.#t.steps} WHERE run_id = ? ORDER BY committed_at, step_key`).all(runId) as Array<{
      step_key: string;
      result: string;
    }>;
    return rows.map((row) => ({ key: row.step_key, result: parseStepResult(runId, row.step_key, row.result) }));
  }

  async commitToolOutput(claim: RunClaim, output: CommittedToolOutput): Promise<void> {
    const commit = this.#db.transaction(() => {
      this.#requireHeld(claim);
      this.#db
        .prepare(`INSERT INTO ${this.#t.outputs} (run_id, call_id, item, committed_at) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, call_id) DO NOTHING`)
        .run(claim.runId, output.callId, output.item, this.#clock.currentTimeMillisUnsafe());
    });
    commit.immediate();
  }

  async committedToolOutputs(runId: string): Promise<CommittedToolOutput[]> {
    const rows = this.#db.prepare(`SELECT call_id, item FROM ${this.#t.outputs} WHERE run_id = ? ORDER BY committed_at, call_id`).all(runId) as Array<{
      call_id: string;
      item: string;
    }>;
    return rows.map((row) => ({ callId: row.call_id, item: row.item }));
  }

  async finish(claim: RunClaim, state: string | { toString(): string }, status: 'paused' | 'completed'): Promise<StoredRun> {
    const text = stateText(state);
    const version = schemaVersionOf(claim.runId, text);
    const finish = this.#db.transaction(() => {
      const { changes } = this.#db
        .prepare(
          `UPDATE ${this.#t.runs} SET status = ?, state = ?, schema_version = ?, revision = revision + 1, claim_token = NULL, claimed_by = NULL,
           lease_expires_at = NULL, updated_at = ? WHERE run_id = ? AND claim_token = ? AND status = 'running'`,
        )
        .run(status, text, version, this.#clock.currentTimeMillisUnsafe(), claim.runId, claim.token);
      if (changes === 0) throw claimLost(claim.runId);
      this.#clearJournal(claim.runId);
      return this.#row(claim.runId)!;
    });
    return toStoredRun(finish.immediate() as RunRow);
  }

  async release(claim: RunClaim): Promise<void> {
    this.#db
      .prepare(
        `UPDATE ${this.#t.runs} SET status = 'paused', claim_token = NULL, claimed_by = NULL, lease_expires_at = NULL, updated_at = ?
         WHERE run_id = ? AND claim_token = ? AND status = 'running'`,
      )
      .run(this.#clock.currentTimeMillisUnsafe(), claim.runId, claim.token);
  }

  #clearJournal(runId: string): void {
    this.#db.prepare(`DELETE FROM ${this.#t.outputs} WHERE run_id = ?`).run(runId);
    this.#db.prepare(`DELETE FROM ${this.#t.steps} WHERE run_id = ?`).run(runId);
  }

  #row(runId: string): RunRow | undefined {
    return this.#db.prepare(`SELECT * FROM ${this.#t.runs} WHERE run_id = ?`).get(runId) as RunRow | undefined;
  }

  #requireHeld(claim: RunClaim): void {
    const held = this.#db.prepare(`SELECT 1 FROM ${this.#t.runs} WHERE run_id = ? AND claim_token = ? AND status = 'running'`).get(claim.runId, claim.token);
    if (!held) throw claimLost(claim.runId);
  }
}

function toStoredRun(row: RunRow): StoredRun {
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
