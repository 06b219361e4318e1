import { systemClock, type WallClock } from '@baton/core';
import { POSTGRES, inTransaction, lockTransaction, type PostgresPool, type PostgresQueryable } from '@baton/sessions/sql';
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

/** What the store needs of a `pg` client, and of a `pg` `Pool` (queries, and a dedicated client for transactions). */
export type { PostgresPool, PostgresQueryable };

export type PostgresRunStateStoreOptions = SqlRunStateStoreOptions;

/**
 * A `RunStateStore` in PostgreSQL through `pg` (pass a `Pool`). A claim is one conditional
 * `UPDATE ... RETURNING`: when workers race, PostgreSQL serializes the updates on the row and the
 * losers see it already claimed. Writes under a claim lock the row and check the claim token.
 */
export class PostgresRunStateStore implements RunStateStore {
  readonly #clock: WallClock;
  readonly #pool: PostgresPool;
  readonly #t: TableNames;

  constructor(pool: PostgresPool, options: PostgresRunStateStoreOptions = {}) {
    this.#pool = pool;
    this.#t = tableNames(options.tablePrefix);
    this.#clock = options.clock ?? systemClock;
  }

  async init(): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      // Serialize concurrent first-time setups (CREATE TABLE IF NOT EXISTS races on the catalog).
      await lockTransaction(client, this.#t.runs);
      for (const sql of runStoreDdl(this.#t, POSTGRES)) await client.query(sql);
    });
  }

  async save(runId: string, state: string | { toString(): string }, options: { expectedRevision?: number } = {}): Promise<StoredRun> {
    requireRunId(runId);
    const text = stateText(state);
    const version = schemaVersionOf(runId, text);
    const { runs } = this.#t;
    return inTransaction(this.#pool, async (client) => {
      const now = this.#clock.currentTimeMillisUnsafe();
      // Insert when absent; otherwise lock the row and check it may be replaced.
      const inserted = await client.query(
        `INSERT INTO ${runs} (run_id, status, state, schema_version, revision, updated_at) VALUES ($1, 'paused', $2, $3, 1, $4)
         ON CONFLICT (run_id) DO NOTHING RETURNING *`,
        [runId, text, version, now],
      );
      if (inserted.rows.length > 0) {
        const refusal = saveRefusal(runId, undefined, options.expectedRevision);
        if (refusal) throw refusal;
        return toStoredRun(inserted.rows[0]);
      }
      const current = await client.query(`SELECT status, revision FROM ${runs} WHERE run_id = $1 FOR UPDATE`, [runId]);
      const refusal = saveRefusal(runId, current.rows[0], options.expectedRevision);
      if (refusal) throw refusal;
      const updated = await client.query(
        `UPDATE ${runs} SET state = $2, schema_version = $3, revision = revision + 1, updated_at = $4 WHERE run_id = $1 RETURNING *`,
        [runId, text, version, now],
      );
      return toStoredRun(updated.rows[0]);
    });
  }

  async load(runId: string): Promise<StoredRun | undefined> {
    const { rows } = await this.#pool.query(`SELECT * FROM ${this.#t.runs} WHERE run_id = $1`, [runId]);
    return rows[0] ? toStoredRun(rows[0]) : undefined;
  }

  async list(options: { status?: StoredRunStatus } = {}): Promise<StoredRun[]> {
    const { rows } =
      options.status === undefined
        ? await this.#pool.query(`SELECT * FROM ${this.#t.runs} ORDER BY updated_at, run_id`)
        : await this.#pool.query(`SELECT * FROM ${this.#t.runs} WHERE status = $1 ORDER BY updated_at, run_id`, [options.status]);
    return rows.map(toStoredRun);
  }

  async delete(runId: string): Promise<boolean> {
    return inTransaction(this.#pool, async (client) => {
      await this.#clearJournal(client, runId);
      const { rowCount } = await client.query(`DELETE FROM ${this.#t.runs} WHERE run_id = $1`, [runId]);
      return (rowCount ?? 0) > 0;
    });
  }

  async claim(runId: string, options: ClaimOptions): Promise<RunClaim | undefined> {
    const leaseMs = requireLease(options.leaseMs);
    const token = newClaimToken();
    const now = this.#clock.currentTimeMillisUnsafe();
    const { rows } = await this.#pool.query(
      `UPDATE ${this.#t.runs} SET status = 'running', claim_token = $2, claimed_by = $3, lease_expires_at = $4, updated_at = $5
       WHERE run_id = $1 AND (status = 'paused' OR (status = 'running' AND lease_expires_at < $5))
       RETURNING state, revision, lease_expires_at`,
      [runId, token, options.workerId, now + leaseMs, now],
    );
    const row = rows[0] as Pick<RunRow, 'state' | 'revision' | 'lease_expires_at'> | undefined;
    if (!row) return undefined;
    return { runId, token, workerId: options.workerId, state: row.state, revision: Number(row.revision), leaseExpiresAt: new Date(Number(row.lease_expires_at)) };
  }

  async renew(claim: RunClaim, leaseMs?: number): Promise<RunClaim> {
    const until = this.#clock.currentTimeMillisUnsafe() + requireLease(leaseMs);
    const { rowCount } = await this.#pool.query(
      `UPDATE ${this.#t.runs} SET lease_expires_at = $3 WHERE run_id = $1 AND claim_token = $2 AND status = 'running'`,
      [claim.runId, claim.token, until],
    );
    if (!rowCount) throw claimLost(claim.runId);
    return { ...claim, leaseExpiresAt: new Date(until) };
  }

  async commitStep(claim: RunClaim, step: CommittedStep): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      await this.#lockHeld(client, claim);
      await client.query(
        `INSERT INTO ${this.#t.steps} (run_id, step_key, result, committed_at) VALUES ($1, $2, $3, $4) ON CONFLICT (run_id, step_key) DO NOTHING`,
        [claim.runId, step.key, JSON.stringify(step.result), this.#clock.currentTimeMillisUnsafe()],
      );
    });
  }

  async committedSteps(runId: string): Promise<CommittedStep[]> {
    const { rows } = await this.#pool.query(`SELECT step_key, result FROM ${this.#t.steps} WHERE run_id = $1 ORDER BY committed_at, step_key`, [runId]);
    return rows.map((row: { step_key: string; result: string }) => ({ key: row.step_key, result: parseStepResult(runId, row.step_key, row.result) }));
  }

  async commitToolOutput(claim: RunClaim, output: CommittedToolOutput): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      await this.#lockHeld(client, claim);
      await client.query(
        `INSERT INTO ${this.#t.outputs} (run_id, call_id, item, committed_at) VALUES ($1, $2, $3, $4) ON CONFLICT (run_id, call_id) DO NOTHING`,
        [claim.runId, output.callId, output.item, this.#clock.currentTimeMillisUnsafe()],
      );
    });
  }

  async committedToolOutputs(runId: string): Promise<CommittedToolOutput[]> {
    const { rows } = await this.#pool.query(`SELECT call_id, item FROM ${this.#t.outputs} WHERE run_id = $1 ORDER BY committed_at, call_id`, [runId]);
    return rows.map((row: { call_id: string; item: string }) => ({ callId: row.call_id, item: row.item }));
  }

  async finish(claim: RunClaim, state: string | { toString(): string }, status: 'paused' | 'completed'): Promise<StoredRun> {
    const text = stateText(state);
    const version = schemaVersionOf(claim.runId, text);
    return inTransaction(this.#pool, async (client) => {
      const { rows } = await client.query(
        `UPDATE ${this.#t.runs} SET status = $3, state = $4, schema_version = $5, revision = revision + 1, claim_token = NULL, claimed_by = NULL,
         lease_expires_at = NULL, updated_at = $6 WHERE run_id = $1 AND claim_token = $2 AND status = 'running' RETURNING *`,
        [claim.runId, claim.token, status, text, version, this.#clock.currentTimeMillisUnsafe()],
      );
      if (!rows[0]) throw claimLost(claim.runId);
      await this.#clearJournal(client, claim.runId);
      return toStoredRun(rows[0]);
    });
  }

  async release(claim: RunClaim): Promise<void> {
    await this.#pool.query(
      `UPDATE ${this.#t.runs} SET status = 'paused', claim_token = NULL, claimed_by = NULL, lease_expires_at = NULL, updated_at = $3
       WHERE run_id = $1 AND claim_token = $2 AND status = 'running'`,
      [claim.runId, claim.token, this.#clock.currentTimeMillisUnsafe()],
    );
  }

  async #clearJournal(client: PostgresQueryable, runId: string): Promise<void> {
    await client.query(`DELETE FROM ${this.#t.outputs} WHERE run_id = $1`, [runId]);
    await client.query(`DELETE FROM ${this.#t.steps} WHERE run_id = $1`, [runId]);
  }

  async #lockHeld(client: PostgresQueryable, claim: RunClaim): Promise<void> {
    const { rows } = await client.query(`SELECT 1 FROM ${this.#t.runs} WHERE run_id = $1 AND claim_token = $2 AND status = 'running' FOR UPDATE`, [
      claim.runId,
      claim.token,
    ]);
    if (rows.length === 0) throw claimLost(claim.runId);
  }
}
