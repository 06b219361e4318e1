import { PROTO_KEY_MESSAGE, SerializedRunStateSchema, type SerializedRunState } from './runStateSchema.js';
import { RunStateError, formatJsonPath } from './runStateError.js';
import { migrateRunStateJson, type RunStateJson } from './runStateVersions.js';
import { fromReferenceRunState, isReferenceRunState } from './referenceRunState.js';
import { checkRunStateStructure } from './runStateStructure.js';
import { withInterruptionStepShape } from './runStateInterruptionShape.js';

/** A serialized state read, checked and migrated to the current schema version. */
export interface ReadRunState {
  /** The state in the current format. */
  readonly state: SerializedRunState;
  /** The `$schemaVersion` it was written with. */
  readonly writtenVersion: string;
}

/**
 * Reads a serialized run state without an agent graph: JSON, prototype-key check, version check,
 * migration chain, schema. Every failure is a `RunStateError`; the input is never modified.
 */
export function readRunStateJson(text: unknown): ReadRunState {
  if (typeof text !== 'string') {
    throw new RunStateError('invalid_json', `Failed to parse run state. Expected a string, got ${text === null ? 'null' : typeof text}.`);
  }
  const value = parseJson(text);
  checkRunStateStructure(value);
  return readParsed(value);
}

/** Like `readRunStateJson`, for a state that is already parsed (for example `state.toJSON()`). */
export function readRunStateValue(value: unknown): ReadRunState {
  checkRunStateStructure(value);
  return readParsed(value);
}

/** Parses JSON text, turning a syntax error into `RunStateError('invalid_json')`. */
export function parseRunStateText(text: string): unknown {
  const value = parseJson(text);
  checkRunStateStructure(value);
  return value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RunStateError('invalid_json', `Failed to parse run state. ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function readParsed(value: unknown): ReadRunState {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RunStateError('invalid_state', `Invalid run state: expected a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}.`, { path: [] });
  }
  // A state stored by @openai/agents is first mapped onto Baton's schema.
  const json = (isReferenceRunState(value) ? fromReferenceRunState(value) : value) as RunStateJson;
  const writtenVersion = (value as RunStateJson).$schemaVersion;
  const migrated = withInterruptionStepShape(migrateRunStateJson(json));
  const parsed = SerializedRunStateSchema.safeParse(migrated);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const first = issues[0]!;
    const path = first.path.map((key) => (typeof key === 'number' ? key : String(key)));
    const isProtoKey = (issue: (typeof issues)[number]) =>
      issue.code === 'invalid_key' && issue.issues.some((inner) => inner.message === PROTO_KEY_MESSAGE);
    const reason = issues.some(isProtoKey) ? 'prototype_key' : 'invalid_state';
    const shown = issues
      .slice(0, 3)
      .map((issue) => `${formatJsonPath(issue.path)}: ${isProtoKey(issue) ? `the key "${String(issue.path.at(-1))}" is not allowed here` : issue.message}`)
      .join('; ');
    const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
    throw new RunStateError(reason, `Invalid run state (schema version ${String(writtenVersion)}): ${shown}${more}`, { path, foundVersion: String(writtenVersion) });
  }
  // The input itself, not zod's copy: it passed the schema, and keeping its key order makes
  // rewriting a state byte-for-byte stable (zod would move known keys first).
  return { state: migrated as SerializedRunState, writtenVersion: writtenVersion as string };
}
