import type { JsonValue } from '@baton/core';
import { UserError } from '@baton/types';

/** `paused`: waiting (for a decision or a worker); `running`: claimed by a worker; `completed`: finished. */
export type StoredRunStatus = 'paused' | 'running' | 'completed';

/** A run kept in a store. */
export interface StoredRun {
  runId: string;
  status: StoredRunStatus;
  /** The serialized run state (`state.toString()`). */
  state: string;
  /** Its `$schemaVersion`, so runs can be routed without reading the state. */
  schemaVersion: string;
  /** Increases with every write of the state: the value to pass as `expectedRevision`. */
  revision: number;
  /** The worker holding the claim, while `running`. */
  claimedBy: string | undefined;
  /** When the claim lapses unless renewed, while `running`. */
  leaseExpiresAt: Date | undefined;
  updatedAt: Date;
}

/** A worker's exclusive right to resume a run, until its lease lapses. */
export interface RunClaim {
  readonly runId: string;
  /** Unique per claim: every write made under the claim checks it (fencing). */
  readonly token: string;
  readonly workerId: string;
  /** The state when it was claimed. */
  readonly state: string;
  readonly revision: number;
  readonly leaseExpiresAt: Date;
}

/**
 * A step of a resumed run whose result is committed: replaying the run returns `result` (the
 * step's `codec.encode` output) for `key` instead of running the step again.
 */
export interface CommittedStep {
  /** The step key (`tool:{callId}`, `t{turn}:model`, ...), unique within a run. */
  key: string;
  result: JsonValue;
}

/**
 * A tool output committed by a previous version of this package (before step journals): still read
 * when resuming a run that version claimed, never written any more.
 */
export interface CommittedToolOutput {
  callId: string;
  /** The serialized `tool_call_output_item`. */
  item: string;
}

export interface ClaimOptions {
  /** Who claims (shown in `claimedBy`). */
  workerId: string;
  /** How long the claim holds unless renewed. Default 5 minutes. */
  leaseMs?: number;
}

/**
 * Durable storage for paused runs, with claim-once resumption: `claim` hands a run to exactly one
 * worker even when several race (another worker may take it only after the lease lapses), and
 * every write under a claim is fenced by its token, so a worker that lost its claim cannot
 * overwrite the run. While a run is resumed, the result of each of its steps is committed to a
 * journal kept apart from the state until the resume finishes, so a crashed resume is replayed
 * without running those steps again.
 */
export interface RunStateStore {
  /** Creates the tables if they do not exist (idempotent). */
  init(): Promise<void>;
  /**
   * Stores a paused run: inserts it, or replaces the state of a paused run. Fails with
   * `RunStoreError` (`conflict`) when `expectedRevision` is given and differs, or (`claimed`) while a
   * worker holds the run, or (`completed`) for a finished run. The stored state is untouched on failure.
   */
  save(runId: string, state: string | { toString(): string }, options?: { expectedRevision?: number }): Promise<StoredRun>;
  load(runId: string): Promise<StoredRun | undefined>;
  list(options?: { status?: StoredRunStatus }): Promise<StoredRun[]>;
  delete(runId: string): Promise<boolean>;
  /** Takes the run for one worker; `undefined` when it is not paused (claimed, completed, unknown). */
  claim(runId: string, options: ClaimOptions): Promise<RunClaim | undefined>;
  /** Extends the lease; `RunStoreError` (`claim_lost`) when the claim is no longer held. */
  renew(claim: RunClaim, leaseMs?: number): Promise<RunClaim>;
  /** Records a step's result under the claim (the first commit of a key wins); `claim_lost` when not held. */
  commitStep(claim: RunClaim, step: CommittedStep): Promise<void>;
  /** The run's journal: every step committed since it was last stored paused (any order). */
  committedSteps(runId: string): Promise<CommittedStep[]>;
  /**
   * @deprecated Written by the previous version only (see `committedToolOutputs`); use `commitStep`.
   * Records a tool output under the claim (idempotent per call id); `claim_lost` when not held.
   */
  commitToolOutput(claim: RunClaim, output: CommittedToolOutput): Promise<void>;
  /** Tool outputs a previous version committed (its rows stay readable, so its runs still resume). */
  committedToolOutputs(runId: string): Promise<CommittedToolOutput[]>;
  /**
   * Ends the claim with the resumed state: `paused` again (new approvals pending) or `completed`.
   * The journal (committed steps and old tool outputs) is dropped: the new state holds what it
   * recorded. `claim_lost` when not held.
   */
  finish(claim: RunClaim, state: string | { toString(): string }, status: 'paused' | 'completed'): Promise<StoredRun>;
  /** Gives the run back untouched (after a failed resume); its journal stays. No-op when not held. */
  release(claim: RunClaim): Promise<void>;
}

export type RunStoreErrorReason = 'conflict' | 'claimed' | 'completed' | 'claim_lost' | 'not_found' | 'invalid_state';

/** A store refused a write; `reason` says why. The stored run is unchanged. */
export class RunStoreError extends UserError {
  readonly reason: RunStoreErrorReason;
  readonly runId: string;
  constructor(reason: RunStoreErrorReason, runId: string, message: string) {
    super(message);
    this.reason = reason;
    this.runId = runId;
  }
}

export const DEFAULT_LEASE_MS = 5 * 60_000;

/** The `$schemaVersion` of a state about to be stored (without reading the rest). */
export function schemaVersionOf(runId: string, state: string): string {
  let value: unknown;
  try {
    value = JSON.parse(state);
  } catch {
    throw new RunStoreError('invalid_state', runId, `Run ${runId}: the state to store is not JSON.`);
  }
  const version = (value as { $schemaVersion?: unknown } | null)?.$schemaVersion;
  if (typeof version !== 'string' || version === '') throw new RunStoreError('invalid_state', runId, `Run ${runId}: the state to store has no $schemaVersion.`);
  return version;
}

export function stateText(state: string | { toString(): string }): string {
  return typeof state === 'string' ? state : state.toString();
}

export function requireRunId(runId: unknown): string {
  if (typeof runId !== 'string' || runId === '') throw new UserError('A run id must be a non-empty string.');
  return runId;
}

export function requireLease(leaseMs: unknown): number {
  const value = leaseMs ?? DEFAULT_LEASE_MS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new UserError(`leaseMs must be a positive number, got ${String(leaseMs)}.`);
  return value;
}

export function newClaimToken(): string {
  return globalThis.crypto.randomUUID();
}

/** A committed result read back from its JSON text. */
export function parseStepResult(runId: string, key: string, text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new RunStoreError('invalid_state', runId, `Run ${runId}: the committed result of step ${key} is not JSON.`);
  }
}

/** Why a save was refused, from the row as it is. */
export function saveRefusal(runId: string, row: { status: StoredRunStatus; revision: number } | undefined, expectedRevision: number | undefined): RunStoreError | undefined {
  if (!row) return expectedRevision !== undefined && expectedRevision !== 0 ? new RunStoreError('not_found', runId, `Run ${runId} does not exist (expected revision ${expectedRevision}).`) : undefined;
  if (row.status === 'running') return new RunStoreError('claimed', runId, `Run ${runId} is being resumed by a worker; it cannot be changed until the worker finishes.`);
  if (row.status === 'completed') return new RunStoreError('completed', runId, `Run ${runId} has completed; it cannot be changed.`);
  if (expectedRevision !== undefined && row.revision !== expectedRevision) {
    return new RunStoreError('conflict', runId, `Run ${runId} changed since it was read (revision ${row.revision}, expected ${expectedRevision}); reload it and decide again.`);
  }
  return undefined;
}

export function claimLost(runId: string): RunStoreError {
  return new RunStoreError('claim_lost', runId, `Run ${runId}: this worker no longer holds the claim (its lease lapsed and another worker took the run).`);
}
