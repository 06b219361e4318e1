// The RunStateStore contract (src/store/runStateStore.ts, README "Durable stores"), run against
// every store directly: what save, claim, renew, commitStep, finish, release and delete promise,
// each with the outcome the contract names (not the one a store happens to give).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '@baton/types';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { WallClock } from '@baton/core';
import { MemoryRunStateStore, PostgresRunStateStore, RunStoreError, SqliteRunStateStore, type RunClaim, type RunStateStore } from '../src/index.js';
import { storeBackends } from './support/storeBackends.js';

let postgres: PostgresServer | undefined;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => postgres?.stop());

/** The smallest text a store accepts: it reads only `$schemaVersion` of what it stores. */
const state = (marker: string, version = '1') => JSON.stringify({ $schemaVersion: version, marker });
const lapse = () => new Promise((resolve) => setTimeout(resolve, 20));
let runs = 0;
const newRunId = () => `contract-${++runs}`;

describe.each(storeBackends(() => postgres!.connectionString))('RunStateStore contract ($name store)', (backend) => {
  let store: RunStateStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await backend.open());
  });
  afterAll(() => close());

  it('save inserts a paused run at revision 1 and each save adds one; load gives it back with its schema version', async () => {
    const runId = newRunId();
    const before = Date.now();
    const first = await store.save(runId, state('a', '7'));
    expect(first).toMatchObject({ runId, status: 'paused', state: state('a', '7'), schemaVersion: '7', revision: 1, claimedBy: undefined, leaseExpiresAt: undefined });
    expect(first.updatedAt).toBeInstanceOf(Date);
    expect(first.updatedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const second = await store.save(runId, { toString: () => state('b') }, { expectedRevision: 1 });
    expect(second).toMatchObject({ revision: 2, state: state('b'), schemaVersion: '1' });
    expect(await store.load(runId)).toEqual(second);
  });

  it('save with an expected revision of a run that does not exist is not_found; 0 means "new"', async () => {
    const runId = newRunId();
    await expect(store.save(runId, state('a'), { expectedRevision: 3 })).rejects.toMatchObject({ reason: 'not_found', runId });
    expect(await store.load(runId)).toBeUndefined();
    expect((await store.save(runId, state('a'), { expectedRevision: 0 })).revision).toBe(1);
  });

  it('save refuses a state without a $schemaVersion, or not JSON, with invalid_state, and a run id that is not a non-empty string', async () => {
    const runId = newRunId();
    for (const bad of ['{"marker":1}', '{"$schemaVersion":""}', '{"$schemaVersion":1}', 'null', '{']) {
      const error = await store.save(runId, bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunStoreError);
      expect(error).toMatchObject({ reason: 'invalid_state', runId });
    }
    expect(await store.load(runId)).toBeUndefined();
    await expect(store.save('', state('a'))).rejects.toThrow(UserError);
  });

  it('list gives every run, or those of one status', async () => {
    const paused = newRunId();
    const running = newRunId();
    const completed = newRunId();
    for (const id of [paused, running, completed]) await store.save(id, state(id));
    await store.claim(running, { workerId: 'w' });
    await store.finish((await store.claim(completed, { workerId: 'w' }))!, state('done'), 'completed');
    const ids = (runs: { runId: string }[]) => runs.map((r) => r.runId).filter((id) => [paused, running, completed].includes(id)).sort();
    expect(ids(await store.list())).toEqual([paused, running, completed].sort());
    expect(ids(await store.list({ status: 'paused' }))).toEqual([paused]);
    expect(ids(await store.list({ status: 'running' }))).toEqual([running]);
    expect(ids(await store.list({ status: 'completed' }))).toEqual([completed]);
  });

  it('claim hands a paused run to one worker with its state, revision and lease; the run shows who holds it', async () => {
    const runId = newRunId();
    await store.save(runId, state('a'));
    const before = Date.now();
    const claim = (await store.claim(runId, { workerId: 'w1', leaseMs: 60_000 }))!;
    expect(claim).toMatchObject({ runId, workerId: 'w1', state: state('a'), revision: 1 });
    expect(typeof claim.token).toBe('string');
    expect(claim.leaseExpiresAt.getTime()).toBeGreaterThanOrEqual(before + 60_000 - 1000);
    expect(claim.leaseExpiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 60_000 + 1000);
    expect(await store.load(runId)).toMatchObject({ status: 'running', claimedBy: 'w1', leaseExpiresAt: claim.leaseExpiresAt });
    expect(await store.claim(runId, { workerId: 'w2' })).toBeUndefined();
    expect(await store.claim(newRunId(), { workerId: 'w2' })).toBeUndefined();
  });

  it('the lease is 5 minutes by default, and must be a positive number', async () => {
    const runId = newRunId();
    await store.save(runId, state('a'));
    for (const leaseMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '100' as unknown as number]) {
      await expect(store.claim(runId, { workerId: 'w', leaseMs })).rejects.toThrow(UserError);
    }
    const before = Date.now();
    const claim = (await store.claim(runId, { workerId: 'w' }))!;
    const lease = claim.leaseExpiresAt.getTime() - before;
    expect(lease).toBeGreaterThan(5 * 60_000 - 1000);
    expect(lease).toBeLessThanOrEqual(5 * 60_000 + 1000);
    const renewed = await store.renew(claim, 10 * 60_000);
    expect(renewed.leaseExpiresAt.getTime() - Date.now()).toBeGreaterThan(10 * 60_000 - 1000);
    expect(renewed).toMatchObject({ runId, token: claim.token, workerId: 'w' });
    expect((await store.load(runId))!.leaseExpiresAt).toEqual(renewed.leaseExpiresAt);
    await expect(store.renew(claim, 0)).rejects.toThrow(UserError);
  });

  it('a lapsed claim can be taken by another worker; the first can then neither renew, commit nor finish', async () => {
    const runId = newRunId();
    await store.save(runId, state('a'));
    const first = (await store.claim(runId, { workerId: 'w1', leaseMs: 5 }))!;
    await lapse();
    const second = (await store.claim(runId, { workerId: 'w2' }))!;
    expect(second).toMatchObject({ workerId: 'w2' });
    expect(second.token).not.toBe(first.token);
    await expect(store.renew(first)).rejects.toMatchObject({ reason: 'claim_lost', runId });
    await expect(store.commitStep(first, { key: 'tool:x', result: 'late' })).rejects.toMatchObject({ reason: 'claim_lost' });
    await expect(store.commitToolOutput(first, { callId: 'x', item: '{}' })).rejects.toMatchObject({ reason: 'claim_lost' });
    await expect(store.finish(first, state('late'), 'completed')).rejects.toMatchObject({ reason: 'claim_lost' });
    await store.release(first); // a no-op: the run stays with the second worker
    expect(await store.load(runId)).toMatchObject({ status: 'running', claimedBy: 'w2', state: state('a') });
    expect(await store.committedSteps(runId)).toEqual([]);
  });

  it('the first commit of a step key wins; the journal is kept by release and dropped by finish', async () => {
    const runId = newRunId();
    await store.save(runId, state('a'));
    const claim = (await store.claim(runId, { workerId: 'w1' }))!;
    await store.commitStep(claim, { key: 't1:model', result: { output: [{ type: 'message', text: 'hi' }], n: 1 } });
    await store.commitStep(claim, { key: 'tool:a', result: 'first' });
    await store.commitStep(claim, { key: 'tool:a', result: 'second' });
    const sorted = async () => [...(await store.committedSteps(runId))].sort((x, y) => x.key.localeCompare(y.key));
    expect(await sorted()).toEqual([
      { key: 't1:model', result: { output: [{ type: 'message', text: 'hi' }], n: 1 } },
      { key: 'tool:a', result: 'first' },
    ]);
    await store.release(claim);
    expect(await store.load(runId)).toMatchObject({ status: 'paused', claimedBy: undefined, leaseExpiresAt: undefined, revision: 1, state: state('a') });
    expect((await sorted()).map((s) => s.key)).toEqual(['t1:model', 'tool:a']);
    await expect(store.commitStep(claim, { key: 'tool:b', result: null })).rejects.toMatchObject({ reason: 'claim_lost' });

    const again = (await store.claim(runId, { workerId: 'w2' }))!;
    await store.commitStep(again, { key: 'tool:b', result: null });
    expect((await sorted()).map((s) => s.key)).toEqual(['t1:model', 'tool:a', 'tool:b']);
    const finished = await store.finish(again, state('paused again', '1'), 'paused');
    expect(finished).toMatchObject({ runId, status: 'paused', state: state('paused again'), revision: 2, claimedBy: undefined, leaseExpiresAt: undefined });
    expect(await store.committedSteps(runId)).toEqual([]);
    expect(await store.load(runId)).toEqual(finished);
  });

  it("finish completes a run; the previous version's tool outputs are read per call (first wins) and dropped with it", async () => {
    const runId = newRunId();
    await store.save(runId, state('a'));
    const claim = (await store.claim(runId, { workerId: 'w1' }))!;
    await store.commitToolOutput(claim, { callId: 'a', item: '{"n":1}' });
    await store.commitToolOutput(claim, { callId: 'a', item: '{"n":2}' });
    await store.commitToolOutput(claim, { callId: 'b', item: '{"n":3}' });
    expect([...(await store.committedToolOutputs(runId))].sort((x, y) => x.callId.localeCompare(y.callId))).toEqual([
      { callId: 'a', item: '{"n":1}' },
      { callId: 'b', item: '{"n":3}' },
    ]);
    await store.commitStep(claim, { key: 'tool:c', result: 1 });
    const done = await store.finish(claim, state('done', '2'), 'completed');
    expect(done).toMatchObject({ status: 'completed', schemaVersion: '2', revision: 2 });
    expect(await store.committedToolOutputs(runId)).toEqual([]);
    expect(await store.committedSteps(runId)).toEqual([]);
    expect(await store.claim(runId, { workerId: 'w2' })).toBeUndefined();
    await expect(store.finish(claim, state('x'), 'completed')).rejects.toMatchObject({ reason: 'claim_lost' });
  });

  it('finish refuses a state without a $schemaVersion and keeps the claim', async () => {
    const runId = newRunId();
    await store.save(runId, state('a'));
    const claim = (await store.claim(runId, { workerId: 'w1' }))!;
    await expect(store.finish(claim, '{}', 'completed')).rejects.toMatchObject({ reason: 'invalid_state' });
    expect(await store.load(runId)).toMatchObject({ status: 'running', state: state('a') });
  });

  it('delete removes the run and its journal, and says whether there was one', async () => {
    const runId = newRunId();
    await store.save(runId, state('a'));
    const claim = (await store.claim(runId, { workerId: 'w1' }))!;
    await store.commitStep(claim, { key: 'tool:a', result: 1 });
    await store.commitToolOutput(claim, { callId: 'a', item: '{}' });
    expect(await store.delete(runId)).toBe(true);
    expect(await store.load(runId)).toBeUndefined();
    expect(await store.committedSteps(runId)).toEqual([]);
    expect(await store.committedToolOutputs(runId)).toEqual([]);
    expect(await store.delete(runId)).toBe(false);
  });

  it('reads of the journal do not share objects with the store', async () => {
    const runId = newRunId();
    await store.save(runId, state('a'));
    const claim = (await store.claim(runId, { workerId: 'w1' }))!;
    const result = { list: [1, 2] };
    await store.commitStep(claim, { key: 'tool:a', result });
    result.list.push(3);
    const [read] = await store.committedSteps(runId);
    expect(read!.result).toEqual({ list: [1, 2] });
    (read!.result as { list: number[] }).list.push(4);
    expect((await store.committedSteps(runId))[0]!.result).toEqual({ list: [1, 2] });
    await store.commitToolOutput(claim, { callId: 'a', item: '{}' });
    const [output] = await store.committedToolOutputs(runId);
    (output as { item: string }).item = 'changed';
    expect((await store.committedToolOutputs(runId))[0]!.item).toBe('{}');
  });

  it('the dates a claim or a read gives are copies: changing them moves no lease', async () => {
    const runId = newRunId();
    await store.save(runId, state('a'));
    const claim = (await store.claim(runId, { workerId: 'w1', leaseMs: 60_000 }))!;
    const leaseExpiresAt = claim.leaseExpiresAt.getTime();
    const read = (await store.load(runId))!;
    const updatedAt = read.updatedAt.getTime();
    claim.leaseExpiresAt.setTime(0);
    read.leaseExpiresAt!.setTime(0);
    read.updatedAt.setTime(0);
    (await store.renew({ ...claim, leaseExpiresAt: new Date(leaseExpiresAt) }, 60_000)).leaseExpiresAt.setTime(0);
    expect(await store.claim(runId, { workerId: 'w2' })).toBeUndefined();
    const after = (await store.load(runId))!;
    expect(after).toMatchObject({ status: 'running', claimedBy: 'w1' });
    expect(after.leaseExpiresAt!.getTime()).toBeGreaterThanOrEqual(leaseExpiresAt);
    expect(after.updatedAt.getTime()).toBe(updatedAt);
  });
});

/** A clock the test moves by hand. */
class ManualClock implements WallClock {
  now = Date.UTC(2030, 0, 1);
  currentTimeMillisUnsafe(): number {
    return this.now;
  }
}

let prefixes = 0;
const clocked: Array<{ name: string; make(clock: WallClock): Promise<{ store: RunStateStore; close(): Promise<void> }> }> = [
  { name: 'memory', make: async (clock) => ({ store: new MemoryRunStateStore({ clock }), close: async () => undefined }) },
  {
    name: 'sqlite',
    async make(clock) {
      const db = new Database(':memory:');
      const store = new SqliteRunStateStore(db, { clock });
      await store.init();
      await store.init(); // idempotent
      return { store, close: async () => void db.close() };
    },
  },
  {
    name: 'postgres',
    async make(clock) {
      const pool = new pg.Pool({ connectionString: postgres!.connectionString, max: 2 });
      const store = new PostgresRunStateStore(pool, { tablePrefix: `clock${++prefixes}_`, clock });
      await store.init();
      await store.init(); // idempotent
      return { store, close: () => pool.end() };
    },
  },
];

describe.each(clocked)('leases and timestamps read the store\'s clock ($name store)', ({ make }) => {
  it('a lease lapses only after its expiry, by the clock the store was given; updatedAt is that clock\'s time', async () => {
    const clock = new ManualClock();
    const { store, close } = await make(clock);
    try {
      const saved = await store.save('run-clock', state('a'));
      expect(saved.updatedAt.getTime()).toBe(clock.now);
      const first = (await store.claim('run-clock', { workerId: 'w1', leaseMs: 1000 }))!;
      expect(first.leaseExpiresAt.getTime()).toBe(clock.now + 1000);
      clock.now += 1000; // exactly at the expiry: still held
      expect(await store.claim('run-clock', { workerId: 'w2' })).toBeUndefined();
      const renewed = await store.renew(first, 2000);
      expect(renewed.leaseExpiresAt.getTime()).toBe(clock.now + 2000);
      clock.now += 2001; // past it: another worker may take the run
      const second = (await store.claim('run-clock', { workerId: 'w2', leaseMs: 500 }))!;
      expect(second).toMatchObject({ workerId: 'w2' });
      expect((await store.load('run-clock'))!).toMatchObject({ claimedBy: 'w2', updatedAt: new Date(clock.now), leaseExpiresAt: new Date(clock.now + 500) });
      clock.now += 10;
      const done = await store.finish(second, state('b'), 'completed');
      expect(done.updatedAt.getTime()).toBe(clock.now);
    } finally {
      await close();
    }
  });

  // Writes are fenced by the claim's token: a run nobody claimed has no token to match, so a claim
  // without one (an untyped caller's `{ runId }`) holds nothing, on every store alike.
  it('a claim without a token holds no run: release leaves a paused run untouched, the writes are claim_lost', async () => {
    const clock = new ManualClock();
    const { store, close } = await make(clock);
    try {
      const saved = await store.save('run-unclaimed', state('a'));
      const forged = { runId: 'run-unclaimed', workerId: 'w1', state: saved.state, revision: 1, leaseExpiresAt: new Date(clock.now + 1000) } as unknown as RunClaim;
      clock.now += 1000;
      await store.release(forged);
      expect(await store.load('run-unclaimed')).toEqual(saved);
      await expect(store.commitStep(forged, { key: 'tool:x', result: 1 })).rejects.toMatchObject({ reason: 'claim_lost' });
      await expect(store.renew(forged)).rejects.toMatchObject({ reason: 'claim_lost' });
      await expect(store.finish(forged, state('forged'), 'completed')).rejects.toMatchObject({ reason: 'claim_lost' });
      expect(await store.load('run-unclaimed')).toEqual(saved);
      expect(await store.committedSteps('run-unclaimed')).toEqual([]);
    } finally {
      await close();
    }
  });
});
