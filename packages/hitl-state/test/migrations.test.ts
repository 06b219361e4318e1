import { CURRENT_RUN_STATE_SCHEMA_VERSION, RUN_STATE_MIGRATIONS, SUPPORTED_RUN_STATE_SCHEMA_VERSIONS, migrateRunStateJson, type RunStateMigration } from '@baton/types/internal';
import { describe, expect, it } from 'vitest';
import { RunStateError } from '../src/index.js';

// A made-up history to exercise the chain: v1 → v2 renames a field, v2 → v3 adds a default.
const chain: RunStateMigration[] = [
  {
    from: '1',
    to: '2',
    description: 'rename turn → currentTurn',
    migrate: ({ turn, ...rest }) => ({ ...rest, currentTurn: turn }),
  },
  {
    from: '2',
    to: '3',
    description: 'add pendingInput',
    migrate: (state) => ({ ...state, pendingInput: [] }),
  },
];

describe('the migration chain', () => {
  it('is at schema version 3, reading exactly the versions it knows', () => {
    expect(CURRENT_RUN_STATE_SCHEMA_VERSION).toBe('3');
    expect(RUN_STATE_MIGRATIONS.map(({ from, to }) => [from, to])).toEqual([
      ['1', '2'],
      ['2', '3'],
    ]);
    expect(SUPPORTED_RUN_STATE_SCHEMA_VERSIONS).toEqual(['1', '2', '3']);
  });

  it('1 -> 2 (tool output customData) and 2 -> 3 (sessionUnsaved) are additive: only the version changes, and the input is untouched', () => {
    const v1 = Object.freeze({ $schemaVersion: '1', currentTurn: 3, generatedItems: [{ type: 'tool_call_output_item', rawItem: { type: 'function_call_result' } }] });
    const migrated = migrateRunStateJson(v1);
    expect(migrated).toEqual({ ...v1, $schemaVersion: '3' });
    expect(migrated.generatedItems).toBe(v1.generatedItems);
    expect(v1.$schemaVersion).toBe('1');
    const v2 = Object.freeze({ $schemaVersion: '2', currentTurn: 1, pendingInput: [] });
    expect(migrateRunStateJson(v2)).toEqual({ ...v2, $schemaVersion: '3' });
    expect(v2.$schemaVersion).toBe('2');
  });

  it('runs every step from the written version to the target, without changing its input', () => {
    const v1 = Object.freeze({ $schemaVersion: '1', turn: 4 });
    expect(migrateRunStateJson(v1, { migrations: chain, target: '3' })).toEqual({ $schemaVersion: '3', currentTurn: 4, pendingInput: [] });
    expect(v1).toEqual({ $schemaVersion: '1', turn: 4 });
    expect(migrateRunStateJson({ $schemaVersion: '2', currentTurn: 1 }, { migrations: chain, target: '3' })).toEqual({ $schemaVersion: '3', currentTurn: 1, pendingInput: [] });
    const current = { $schemaVersion: '3', currentTurn: 2 };
    expect(migrateRunStateJson(current, { migrations: chain, target: '3' })).toBe(current);
  });

  it('refuses a newer version naming both versions, and an unknown one with the reference message', () => {
    const newer = (() => {
      try {
        migrateRunStateJson({ $schemaVersion: '4' }, { migrations: chain, target: '3' });
      } catch (error) {
        return error as RunStateError;
      }
      return undefined;
    })();
    expect(newer).toBeInstanceOf(RunStateError);
    expect(newer).toMatchObject({ reason: 'newer_version', foundVersion: '4', supportedVersion: '3' });
    expect(newer!.message).toContain('schema version 4 is newer than this version of Baton supports (schema version 3)');
    expect(() => migrateRunStateJson({ $schemaVersion: '0' }, { migrations: chain, target: '3' })).toThrow('Run state schema version 0 is not supported. Please use version 3.');
    expect(() => migrateRunStateJson({}, { migrations: chain, target: '3' })).toThrow('Run state is missing schema version');
  });
});
