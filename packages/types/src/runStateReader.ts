import { PROTO_KEY_MESSAGE, SerializedRunStateSchema, type SerializedRunState } from './runStateSchema.js';
import { RunStateError, formatJsonPath } from './runStateError.js';
import { migrateRunStateJson, type RunStateJson } from './runStateVersions.js';
import { fromReferenceRunState, isReferenceRunState } from './referenceRunState.js';

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
  // JSON.parse keeps `"__proto__"` as an own key; look for it only when the text contains one.
  if (text.includes('"__proto__"')) assertNoProtoKeys(value);
  return readParsed(value);
}

/** Like `readRunStateJson`, for a state that is already parsed (for example `state.toJSON()`). */
export function readRunStateValue(value: unknown): ReadRunState {
  assertNoProtoKeys(value);
  return readParsed(value);
}

/** Parses JSON text, turning a syntax error into `RunStateError('invalid_json')`. */
export function parseRunStateText(text: string): unknown {
  return parseJson(text);
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
  const migrated = migrateRunStateJson(json);
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

/** Rejects a `__proto__` key anywhere: it has no place in the format, and is how prototypes get polluted. */
function assertNoProtoKeys(root: unknown): void {
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (typeof value[i] === 'object' && value[i] !== null) stack.push({ value: value[i], path: [...path, i] });
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key === '__proto__') {
        throw new RunStateError('prototype_key', `Invalid run state: a "__proto__" key at ${formatJsonPath([...path, key])} is not allowed.`, { path: [...path, key] });
      }
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push({ value: child, path: [...path, key] });
    }
  }
}
