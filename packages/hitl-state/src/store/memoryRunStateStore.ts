import { systemClock, type WallClock } from '@baton/core';
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

interface Row extends StoredRun {
  token: string | undefined;
}

/** A `RunStateStore` in memory, for tests and single-process programs (same rules as the SQL stores). */
export class MemoryRunStateStore implements RunStateStore {
  readonly #runs = new Map<string, Row>();
  readonly #outputs = new Map<string, Map<string, CommittedToolOutput>>();
  /** Step results by run, then key, as JSON text (a read never shares objects with a writer). */
  readonly #steps = new Map<string, Map<string, string>>();
  readonly #clock: WallClock;

  /** `clock`: where leases and timestamps read the time (default the system's; `yield* Clock.Clock` in an Effect test). */
  constructor(options: { clock?: WallClock } = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  async init(): Promise<void> {}

  async save(runId: string, state: string | { toString(): string }, options: { expectedRevision?: number } = {}): Promise<StoredRun> {
    requireRunId(runId);
    const text = stateText(state);
    const schemaVersion = schemaVersionOf(runId, text);
    const row = this.#runs.get(runId);
    const refusal = saveRefusal(runId, row, options.expectedRevision);
    if (refusal) throw refusal;
    const next: Row = {
      runId,
      status: 'paused',
      state: text,
      schemaVersion,
      revision: (row?.revision ?? 0) + 1,
      claimedBy: undefined,
      leaseExpiresAt: undefined,
      updatedAt: new Date(this.#clock.currentTimeMillisUnsafe()),
      token: undefined,
    };
    this.#runs.set(runId, next);
    return view(next);
  }

  async load(runId: string): Promise<StoredRun | undefined> {
    const row = this.#runs.get(runId);
    return row ? view(row) : undefined;
  }

  async list(options: { status?: StoredRunStatus } = {}): Promise<StoredRun[]> {
    return [...this.#runs.values()].filter((row) => options.status === undefined || row.status === options.status).map(view);
  }

  async delete(runId: string): Promise<boolean> {
    this.#outputs.delete(runId);
    this.#steps.delete(runId);
    return this.#runs.delete(runId);
  }

  async claim(runId: string, options: ClaimOptions): Promise<RunClaim | undefined> {
    const leaseMs = requireLease(options.leaseMs);
    const row = this.#runs.get(runId);
    const now = this.#clock.currentTimeMillisUnsafe();
    if (!row) return undefined;
    const lapsed = row.status === 'running' && row.leaseExpiresAt !== undefined && row.leaseExpiresAt.getTime() < now;
    if (row.status !== 'paused' && !lapsed) return undefined;
    row.status = 'running';
    row.token = newClaimToken();
    row.claimedBy = options.workerId;
    row.leaseExpiresAt = new Date(now + leaseMs);
    row.updatedAt = new Date(now);
    return { runId, token: row.token, workerId: options.workerId, state: row.state, revision: row.revision, leaseExpiresAt: new Date(row.leaseExpiresAt) };
  }

  async renew(claim: RunClaim, leaseMs?: number): Promise<RunClaim> {
    const row = this.#held(claim);
    row.leaseExpiresAt = new Date(this.#clock.currentTimeMillisUnsafe() + requireLease(leaseMs));
    return { ...claim, leaseExpiresAt: new Date(row.leaseExpiresAt) };
  }

  async commitStep(claim: RunClaim, step: CommittedStep): Promise<void> {
    this.#held(claim);
    let steps = this.#steps.get(claim.runId);
    if (!steps) this.#steps.set(claim.runId, (steps = new Map()));
    if (!steps.has(step.key)) steps.set(step.key, JSON.stringify(step.result));
  }

  async committedSteps(runId: string): Promise<CommittedStep[]> {
    return [...(this.#steps.get(runId) ?? [])].map(([key, text]) => ({ key, result: parseStepResult(runId, key, text) }));
  }

  async commitToolOutput(claim: RunClaim, output: CommittedToolOutput): Promise<void> {
    this.#held(claim);
    let outputs = this.#outputs.get(claim.runId);
    if (!outputs) this.#outputs.set(claim.runId, (outputs = new Map()));
    if (!outputs.has(output.callId)) outputs.set(output.callId, { callId: output.callId, item: output.item });
  }

  async committedToolOutputs(runId: string): Promise<CommittedToolOutput[]> {
    return [...(this.#outputs.get(runId)?.values() ?? [])].map((o) => ({ ...o }));
  }

  async finish(claim: RunClaim, state: string | { toString(): string }, status: 'paused' | 'completed'): Promise<StoredRun> {
    const text = stateText(state);
    const schemaVersion = schemaVersionOf(claim.runId, text);
    const row = this.#held(claim);
    Object.assign(row, { status, state: text, schemaVersion, revision: row.revision + 1, claimedBy: undefined, leaseExpiresAt: undefined, updatedAt: new Date(this.#clock.currentTimeMillisUnsafe()), token: undefined });
    this.#outputs.delete(claim.runId);
    this.#steps.delete(claim.runId);
    return view(row);
  }

  async release(claim: RunClaim): Promise<void> {
    const row = this.#runs.get(claim.runId);
    if (!row || row.token !== claim.token || row.status !== 'running') return;
    Object.assign(row, { status: 'paused', claimedBy: undefined, leaseExpiresAt: undefined, updatedAt: new Date(this.#clock.currentTimeMillisUnsafe()), token: undefined });
  }

  #held(claim: RunClaim): Row {
    const row = this.#runs.get(claim.runId);
    if (!row || row.token !== claim.token || row.status !== 'running') throw claimLost(claim.runId);
    return row;
  }
}

/** A copy down to the dates: a caller changing what it was given must not move a lease (as with the SQL stores). */
function view(row: Row): StoredRun {
  const { token: _token, ...run } = row;
  return { ...run, leaseExpiresAt: run.leaseExpiresAt && new Date(run.leaseExpiresAt), updatedAt: new Date(run.updatedAt) };
}
