import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Agent, UserError, run } from '@baton/core';
import { ScriptedModel, functionCall } from '@baton/testing';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { PostgresRunStateStore, SqliteRunStateStore, type RunStateStore } from '../src/index.js';
import { Executions, approvalTool } from './support/scenarios.js';

// PostgreSQL cuts identifiers to 63 bytes. With a 53-character prefix, `<prefix>committed_tool_outputs`
// and `<prefix>committed_steps` both become `<prefix>committed_`: the step journal and the tool
// output journal would be one table.
const COLLIDING = `p${'x'.repeat(51)}_`;
const LONGEST_ALLOWED = `p${'y'.repeat(39)}_`;

let postgres: PostgresServer | undefined;
let pool: pg.Pool | undefined;
let sqliteDir: string | undefined;
const sqliteDbs: Database.Database[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.connectionString, max: 2 });
  sqliteDir = mkdtempSync(join(tmpdir(), 'baton-prefix-'));
});

afterAll(async () => {
  for (const db of sqliteDbs) db.close();
  await pool?.end();
  await postgres?.stop();
  if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
});

async function pausedState(): Promise<string> {
  const model = new ScriptedModel([[functionCall('pay', { target: 'a' }, { callId: 'a' })]]);
  const paused = await run(new Agent({ name: 'Banker', model, tools: [approvalTool('pay', new Executions())] }), 'pay a');
  return paused.state.toString();
}

const tablesLike = async (prefix: string) =>
  (await pool!.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE tablename LIKE $1 ORDER BY tablename`, [`${prefix.slice(0, 40)}%`])).rows.map(
    (row) => row.tablename,
  );

const backends: Array<{ name: string; make(prefix: string): RunStateStore }> = [
  { name: 'postgres', make: (prefix) => new PostgresRunStateStore(pool!, { tablePrefix: prefix }) },
  {
    name: 'sqlite',
    make: (prefix) => {
      const db = new Database(join(sqliteDir!, `${prefix.length}.db`));
      sqliteDbs.push(db);
      return new SqliteRunStateStore(db, { tablePrefix: prefix });
    },
  },
];

it('PostgreSQL would name both journals the same table with that prefix (the hazard the limit prevents)', async () => {
  const { rows } = await pool!.query<{ outputs: string; steps: string }>(`SELECT $1::name AS outputs, $2::name AS steps`, [
    `${COLLIDING}committed_tool_outputs`,
    `${COLLIDING}committed_steps`,
  ]);
  expect(rows[0]!.outputs).toBe(rows[0]!.steps);
});

describe.each(backends)('$name store: tablePrefix length', ({ name, make }) => {
  it('refuses a prefix that would make two table names one, naming the limit, before touching the database', async () => {
    const error = (() => {
      try {
        make(COLLIDING);
      } catch (thrown) {
        return thrown as Error;
      }
      throw new Error('expected the store to refuse the prefix');
    })();
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toContain('tablePrefix');
    expect(error.message).toContain('at most 41');
    expect(error.message).toContain('63-byte');
    if (name === 'postgres') expect(await tablesLike(COLLIDING)).toEqual([]);
  });

  it('keeps the three tables apart with the longest prefix allowed (41 characters)', async () => {
    const store = make(LONGEST_ALLOWED);
    await store.init();
    if (name === 'postgres') {
      expect(await tablesLike(LONGEST_ALLOWED)).toEqual(
        ['committed_steps', 'committed_tool_outputs', 'paused_runs'].map((table) => `${LONGEST_ALLOWED}${table}`),
      );
    }
    await store.save('run-1', await pausedState());
    const claim = (await store.claim('run-1', { workerId: 'w1' }))!;
    await store.commitStep(claim, { key: 'tool:a', result: { paid: 'a' } });
    await store.commitToolOutput(claim, { callId: 'a', item: '{"type":"function_call_result"}' });
    expect(await store.committedSteps('run-1')).toEqual([{ key: 'tool:a', result: { paid: 'a' } }]);
    expect(await store.committedToolOutputs('run-1')).toEqual([{ callId: 'a', item: '{"type":"function_call_result"}' }]);
  });

  it('still refuses a prefix with characters outside letters, digits and _', () => {
    expect(() => make('bad-prefix_')).toThrow(/letters, digits and _/);
  });
});
