import { UserError } from './errors.js';
import type { RegisteredRunState } from './registry.js';

/** Why a serialized run state could not be read, resolved or resumed. */
export type RunStateErrorReason =
  /** Not JSON (truncated, empty, garbage). */
  | 'invalid_json'
  /** JSON without a `$schemaVersion`. */
  | 'missing_version'
  /** A `$schemaVersion` this package never wrote (not a version number, or an unknown one). */
  | 'unsupported_version'
  /** Written by a newer version of Baton than this one. */
  | 'newer_version'
  /** A field is missing or of the wrong type. */
  | 'invalid_state'
  /** A `__proto__` key anywhere, or a `constructor` / `prototype` key as a key of one of the format's maps. */
  | 'prototype_key'
  /** Nested deeper than `MAX_RUN_STATE_DEPTH` levels. */
  | 'too_deep'
  /** An agent reference that the rebuilt agent graph does not contain. */
  | 'unresolved_agent'
  /** A nested agent-tool run whose agent tool the rebuilt graph does not contain. */
  | 'unresolved_tool'
  /** `approve` / `reject` for a call that is not waiting for a decision. */
  | 'approval_not_pending'
  /** `approve` after the approval request expired. */
  | 'approval_expired'
  /** The state is already being resumed by another run. */
  | 'already_resuming'
  /** A state written by `@openai/agents` that uses a feature Baton does not implement. */
  | 'unsupported_feature';

export interface RunStateErrorDetails {
  /** Where in the serialized state the problem is (JSON path). */
  path?: ReadonlyArray<string | number>;
  /** The `$schemaVersion` found in the input, when there was one. */
  foundVersion?: string;
  /** The newest `$schemaVersion` this package reads and writes. */
  supportedVersion?: string;
  cause?: unknown;
  /** The run state the error is about, when there is one. */
  state?: RegisteredRunState;
}

/**
 * Every problem reading, resolving or resuming a serialized run state. A `UserError` (as in the
 * reference), tagged with a `reason`; reading never throws anything else, and never changes the input.
 */
export class RunStateError extends UserError {
  declare readonly _tag: 'RunStateError';
  readonly reason: RunStateErrorReason;
  readonly path: ReadonlyArray<string | number> | undefined;
  readonly foundVersion: string | undefined;
  readonly supportedVersion: string | undefined;

  constructor(reason: RunStateErrorReason, message: string, details: RunStateErrorDetails = {}) {
    super(message, details.state);
    this.reason = reason;
    this.path = details.path;
    this.foundVersion = details.foundVersion;
    this.supportedVersion = details.supportedVersion;
    if (details.cause !== undefined) (this as { cause?: unknown }).cause = details.cause;
  }
}

/** `$.a.b[0]` for a JSON path. */
export function formatJsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}
