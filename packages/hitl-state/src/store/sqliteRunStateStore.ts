import { systemClock, type WallClock } from '@baton/core';
import { SQLITE, immediate, setBusyTimeout, type SqliteDatabase } from '@baton/sessions/sql';
import {
  claimLost,
  newClaimToken,
  requireLease,
  requireRunId,
  saveRefusal,
  schemaVersionOf,
  stateText,
  parseStepResult,
  type ClaimOptions,
  type CommittedStep,
  type CommittedToolOutput,
  type RunClaim,
  type RunStateStore,
  type StoredRun,
  type StoredRunStatus,
} from './runStateStore.js';
import { runStoreDdl, tableNames, toStoredRun, type RunRow, type SqlRunStateStoreOptions, type TableNames } from './runTables.js';

/** What the store needs of a `better-sqlite3` `Database` (any compatible driver works). */
export type { SqliteDatabase };

export interface SqliteRunStateStoreOptions extends SqlRunStateStoreOptions {
  /** How long a connection waits for another one's write lock (sets `busy_timeout`; default 5000 ms). */
  busyTimeoutMs?: number;
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
    setBusyTimeout(db, options.busyTimeoutMs);
  }

  async init(): Promise<void> {
    for (const sql of runStoreDdl(this.#t, SQLITE)) this.#db.exec(sql);
  }

  async save(runId: string, state: string | { toString(): string }, options: { expectedRevision?: number } = {}): Promise<StoredRun> {
    requireRunId(runId);
    const text = stateText(state);
    const version = schemaVersionOf(runId, text);
    const { runs } = this.#t;
    return toStoredRun(immediate(this.#db, () => {
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
    }));
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
    return immediate(this.#db, () => {
      this.#clearJournal(runId);
      return this.#db.prepare(`DELETE FROM ${this.#t.runs} WHERE run_id = ?`).run(runId).changes > 0;
    });
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
    immediate(this.#db, () => {
      this.#requireHeld(claim);
      this.#db
        .prepare(`INSERT INTO ${this.#t.steps} (run_id, step_key, result, committed_at) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, step_key) DO NOTHING`)
        .run(claim.runId, step.key, JSON.stringify(step.result), this.#clock.currentTimeMillisUnsafe());
    });
  }

  async committedSteps(runId: string): Promise<CommittedStep[]> {
    const rows = this.#db.prepare(`SELECT step_key, result FROM ${this.#t.steps} WHERE run_id = ? ORDER BY committed_at, step_key`).all(runId) as Array<{
      step_key: string;
      result: string;
    }>;
    return rows.map((row) => ({ key: row.step_key, result: parseStepResult(runId, row.step_key, row.result) }));
  }

  async commitToolOutput(claim: RunClaim, output: CommittedToolOutput): Promise<void> {
    immediate(this.#db, () => {
      this.#requireHeld(claim);
      this.#db
        .prepare(`INSERT INTO ${this.#t.outputs} (run_id, call_id, item, committed_at) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, call_id) DO NOTHING`)
        .run(claim.runId, output.callId, output.item, this.#clock.currentTimeMillisUnsafe());
    });
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
    return toStoredRun(immediate(this.#db, () => {
      const { changes } = this.#db
        .prepare(
          `UPDATE ${this.#t.runs} SET status = ?, state = ?, schema_version = ?, revision = revision + 1, claim_token = NULL, claimed_by = NULL,
           lease_expires_at = NULL, updated_at = ? WHERE run_id = ? AND claim_token = ? AND status = 'running'`,
        )
        .run(status, text, version, this.#clock.currentTimeMillisUnsafe(), claim.runId, claim.token);
      if (changes === 0) throw claimLost(claim.runId);
      this.#clearJournal(claim.runId);
      return this.#row(claim.runId)!;
    }));
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
