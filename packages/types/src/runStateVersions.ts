import { CURRENT_RUN_STATE_SCHEMA_VERSION } from './runStateSchema.js';
import { RunStateError } from './runStateError.js';

/** A parsed JSON object (the shape migrations work on). */
export type RunStateJson = { [key: string]: unknown };

/**
 * One step of the migration chain: a pure function from a state written as `from` to the same state
 * as `to`. It returns a new object (copying only what it changes) and never mutates its input.
 */
export interface RunStateMigration {
  readonly from: string;
  readonly to: string;
  readonly description: string;
  migrate(state: RunStateJson): RunStateJson;
}

/**
 * Every format change ever released, oldest first. To change the format: bump
 * `CURRENT_RUN_STATE_SCHEMA_VERSION`, append a migration from the previous version here, and add
 * the fixtures the new version writes to the corpus in `packages/hitl-state/test/fixtures/run-state/`
 * (`pnpm --filter @baton/hitl-state fixtures`; the older versions' fixtures stay, and must still
 * resume). A change that is not purely additive also keeps the previous schema (as
 * `runStateSchemaV<n>.ts`) for the migration to read the old shape with.
 */
export const RUN_STATE_MIGRATIONS: readonly RunStateMigration[] = [
  {
    from: '1',
    to: '2',
    // Additive: a version-1 state is a valid version-2 state. The new version stops an older
    // reader from silently dropping the custom data it does not know.
    description: 'tool output items may carry customData (tool({ customDataExtractor }))',
    migrate: (state) => ({ ...state, $schemaVersion: '2' }),
  },
  {
    from: '2',
    to: '3',
    // Additive: a version-2 state is a valid version-3 state. The new version stops an older reader
    // from silently dropping what the session has not received (and so losing it from the history).
    description: 'a state may record what its session has not received yet (sessionUnsaved)',
    migrate: (state) => ({ ...state, $schemaVersion: '3' }),
  },
];

/** Every `$schemaVersion` this package can read, oldest first (the last is the one it writes). */
export const SUPPORTED_RUN_STATE_SCHEMA_VERSIONS: readonly string[] = versionsOf(RUN_STATE_MIGRATIONS, CURRENT_RUN_STATE_SCHEMA_VERSION);

function versionsOf(chain: readonly RunStateMigration[], current: string): string[] {
  const versions = chain.length === 0 ? [current] : [chain[0]!.from, ...chain.map((m) => m.to)];
  for (let i = 1; i < chain.length; i++) {
    if (chain[i]!.from !== chain[i - 1]!.to) throw new Error(`Run-state migration chain is broken between ${chain[i - 1]!.to} and ${chain[i]!.from}.`);
  }
  if (versions.at(-1) !== current) throw new Error(`Run-state migration chain ends at ${versions.at(-1)}, not at ${current}.`);
  return versions;
}

/** Schema versions are whole numbers written as strings: `'1'`, `'2'`, ... */
export function parseSchemaVersion(version: string): number | undefined {
  return /^[1-9][0-9]{0,8}$/.test(version) ? Number(version) : undefined;
}

/**
 * Runs the chain from `state.$schemaVersion` up to `target` (the current version by default).
 * Throws `RunStateError` (`newer_version` / `unsupported_version`) for a version the chain does not
 * reach. Returns the input itself when it already is at the target version.
 */
export function migrateRunStateJson(
  state: RunStateJson,
  options: { migrations?: readonly RunStateMigration[]; target?: string } = {},
): RunStateJson {
  const migrations = options.migrations ?? RUN_STATE_MIGRATIONS;
  const target = options.target ?? CURRENT_RUN_STATE_SCHEMA_VERSION;
  const found = state.$schemaVersion;
  assertReadableVersion(found, migrations, target);
  let current = state;
  let version = found as string;
  while (version !== target) {
    const step = migrations.find((m) => m.from === version);
    if (!step) throw unsupportedVersion(version, target);
    current = step.migrate(current);
    if (current.$schemaVersion !== step.to) current = { ...current, $schemaVersion: step.to };
    version = step.to;
  }
  return current;
}

/** Checks that `$schemaVersion` is present and one the chain can bring up to `target`. */
export function assertReadableVersion(
  found: unknown,
  migrations: readonly RunStateMigration[] = RUN_STATE_MIGRATIONS,
  target: string = CURRENT_RUN_STATE_SCHEMA_VERSION,
): asserts found is string {
  if (found === undefined || found === null || found === '') {
    throw new RunStateError('missing_version', 'Run state is missing schema version', { supportedVersion: target });
  }
  if (typeof found !== 'string') throw unsupportedVersion(shortJson(found), target);
  if (found === target || migrations.some((m) => m.from === found)) return;
  const foundNumber = parseSchemaVersion(found);
  const targetNumber = parseSchemaVersion(target);
  if (foundNumber !== undefined && targetNumber !== undefined && foundNumber > targetNumber) {
    throw new RunStateError(
      'newer_version',
      `Run state schema version ${found} is newer than this version of Baton supports (schema version ${target}). ` +
        `It was written by a newer release: upgrade @baton/core, or route it by its schema version (inspectRunState) ` +
        `to the package version that wrote it.`,
      { foundVersion: found, supportedVersion: target },
    );
  }
  throw unsupportedVersion(found, target);
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function unsupportedVersion(found: string, target: string): RunStateError {
  const shown = found.length > 40 ? `${found.slice(0, 40)}…` : found;
  return new RunStateError('unsupported_version', `Run state schema version ${shown} is not supported. Please use version ${target}.`, {
    foundVersion: found,
    supportedVersion: target,
  });
}
