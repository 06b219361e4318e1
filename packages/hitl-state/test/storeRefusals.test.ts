// What a store's refusal tells its caller (src/store/runStateStore.ts, README "Durable stores"):
// each `RunStoreError` carries the `reason` the contract names, the run id, and a message that
// says which run and why (an operator reading a log must not get an empty or a misleading one);
// a bad argument is a `UserError` that names it. Run against every store, as the contract is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '@baton/types';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import Database from 'better-sqlite3';
import pg from 'pg';
import { PostgresRunStateStore, RunStoreError, SqliteRunStateStore, type RunStateStore } from '../src/index.js';
import { storeBackends } from './support/storeBackends.js';

let postgres: PostgresServer | undefined;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => postgres?.stop());

const state = (marker: string) => JSON.stringify({ $schemaVersion: '1', marker });

/** The error a promise rejected with (the test fails when it resolved). */
async function refusal(promise: Promise<unknown>): Promise<RunStoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunStoreError);
  return error as RunStoreError;
}

// Run ids without digits, so a revision number found in a message is the revision's.
describe.each(storeBackends(() => postgres!.connectionString))('refusals name the run and the reason ($name store)', (backend) => {
  let store: RunStateStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await backend.open());
  });
  afterAll(() => close());

  it('a save without an expected revision replaces the state of a paused run (no conflict to check)', async () => {
    await store.save('run-replace', state('a'));
    await store.save('run-replace', state('b'));
    const third = await store.save('run-replace', state('c'));
    expect(third).toMatchObject({ status: 'paused', state: state('c'), revision: 3 });
  });

  it('a state that is not JSON is told apart from one without a $schemaVersion', async () => {
    const notJson = await refusal(store.save('run-garbage', '{"$schemaVersion":'));
    expect(notJson).toMatchObject({ reason: 'invalid_state', runId: 'run-garbage' });
    expect(notJson.message).toContain('run-garbage');
    expect(notJson.message).toMatch(/not JSON/);
    const noVersion = await refusal(store.save('run-garbage', '{"marker":"a"}'));
    expect(noVersion).toMatchObject({ reason: 'invalid_state', runId: 'run-garbage' });
    expect(noVersion.message).toContain('run-garbage');
    expect(noVersion.message).toContain('$schemaVersion');
    expect(noVersion.message).not.toMatch(/not JSON/);
    expect(await store.load('run-garbage')).toBeUndefined();
  });

  it('a run id that is not a non-empty string is a UserError that says so, and nothing is stored', async () => {
    for (const runId of [undefined, null, 42, {}, '']) {
      const error = await store.save(runId as unknown as string, state('a')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toMatch(/run id/i);
    }
    expect(await store.load('42')).toBeUndefined();
    expect((await store.list()).map((r) => r.runId)).not.toContain('42');
  });

  it('a lease that is not a positive number is a UserError naming leaseMs and the value given', async () => {
    await store.save('run-lease', state('a'));
    const error = await store.claim('run-lease', { workerId: 'w', leaseMs: -250 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('leaseMs');
    expect((error as Error).message).toContain('-250');
    expect(await store.load('run-lease')).toMatchObject({ status: 'paused' });
  });

  it('not_found names the run and the revision expected', async () => {
    const error = await refusal(store.save('run-missing', state('a'), { expectedRevision: 7 }));
    expect(error).toMatchObject({ reason: 'not_found', runId: 'run-missing' });
    expect(error.message).toContain('run-missing');
    expect(error.message).toMatch(/\b7\b/);
  });

  it('conflict names the run, its revision and the one expected', async () => {
    for (const marker of ['a', 'b', 'c']) await store.save('run-stale', state(marker));
    const error = await refusal(store.save('run-stale', state('d'), { expectedRevision: 1 }));
    expect(error).toMatchObject({ reason: 'conflict', runId: 'run-stale' });
    expect(error.message).toContain('run-stale');
    expect(error.message).toMatch(/\b3\b/);
    expect(error.message).toMatch(/\b1\b/);
    expect(await store.load('run-stale')).toMatchObject({ state: state('c'), revision: 3 });
  });

  it('claimed while a worker holds the run, completed once it finished; claim_lost for a stale claim', async () => {
    await store.save('run-held', state('a'));
    const claim = (await store.claim('run-held', { workerId: 'w1' }))!;
    const claimed = await refusal(store.save('run-held', state('b')));
    expect(claimed).toMatchObject({ reason: 'claimed', runId: 'run-held' });
    expect(claimed.message).toContain('run-held');

    await store.finish(claim, state('done'), 'completed');
    const completed = await refusal(store.save('run-held', state('c')));
    expect(completed).toMatchObject({ reason: 'completed', runId: 'run-held' });
    expect(completed.message).toContain('run-held');
    const completedAtRevision = await refusal(store.save('run-held', state('c'), { expectedRevision: 2 }));
    expect(completedAtRevision).toMatchObject({ reason: 'completed' });
    expect(await store.load('run-held')).toMatchObject({ status: 'completed', state: state('done'), revision: 2 });

    const lost = await refusal(store.commitStep(claim, { key: 'tool:late', result: 1 }));
    expect(lost).toMatchObject({ reason: 'claim_lost', runId: 'run-held' });
    expect(lost.message).toContain('run-held');
  });
});

// A journal row that is not JSON (written by hand, or damaged) is reported as the store's error,
// naming the run and the step, rather than a bare SyntaxError from deep inside a resume.
let prefixes = 0;
const sqlStores: Array<{ name: string; open(): Promise<{ store: RunStateStore; corrupt(runId: string, key: string): Promise<void>; close(): Promise<void> }> }> = [
  {
    name: 'sqlite',
    async open() {
      const db = new Database(':memory:');
      const store = new SqliteRunStateStore(db);
      await store.init();
      return {
        store,
        corrupt: async (runId, key) => void db.prepare(`UPDATE baton_committed_steps SET result = 'not json' WHERE run_id = ? AND step_key = ?`).run(runId, key),
        close: async () => void db.close(),
      };
    },
  },
  {
    name: 'postgres',
    async open() {
      const pool = new pg.Pool({ connectionString: postgres!.connectionString, max: 2 });
      const prefix = `refusal${++prefixes}_`;
      const store = new PostgresRunStateStore(pool, { tablePrefix: prefix });
      await store.init();
      return {
        store,
        corrupt: async (runId, key) => void (await pool.query(`UPDATE ${prefix}committed_steps SET result = 'not json' WHERE run_id = $1 AND step_key = $2`, [runId, key])),
        close: () => pool.end(),
      };
    },
  },
];

describe.each(sqlStores)('a committed step that is not JSON ($name store)', ({ open }) => {
  it('committedSteps fails with invalid_state naming the run and the step', async () => {
    const { store, corrupt, close } = await open();
    try {
      await store.save('run-damaged', state('a'));
      const claim = (await store.claim('run-damaged', { workerId: 'w1' }))!;
      await store.commitStep(claim, { key: 'tool:call_a', result: { ok: true } });
      await corrupt('run-damaged', 'tool:call_a');
      const error = await refusal(store.committedSteps('run-damaged'));
      expect(error).toMatchObject({ reason: 'invalid_state', runId: 'run-damaged' });
      expect(error.message).toContain('run-damaged');
      expect(error.message).toContain('tool:call_a');
    } finally {
      await close();
    }
  });
});
