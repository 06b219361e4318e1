import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Agent, run } from '@baton/core';
import { ScriptedModel, functionCall, modelError, modelResponder, type ScriptedModelInput } from '@baton/testing';
import {
  MemoryRunStateStore,
  PostgresRunStateStore,
  RunStoreError,
  SqliteRunStateStore,
  inspectRunState,
  resumePausedRun,
  updatePausedRun,
  type RunStateStore,
} from '../src/index.js';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { Executions, approvalTool, echoOutputs, toolOutputsIn } from './support/scenarios.js';

/** Two handles on one store (two connections for SQL), as two workers would have. */
interface Backend {
  name: string;
  open(): Promise<{ a: RunStateStore; b: RunStateStore; close(): Promise<void> }>;
}

let postgres: PostgresServer | undefined;
let schema = 0;

const backends: Backend[] = [
  {
    name: 'memory',
    async open() {
      const store = new MemoryRunStateStore();
      return { a: store, b: store, close: async () => undefined };
    },
  },
  {
    name: 'sqlite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'baton-sqlite-'));
      const file = join(dir, 'runs.db');
      const dbA = new Database(file);
      const dbB = new Database(file);
      dbA.pragma('journal_mode = WAL');
      const a = new SqliteRunStateStore(dbA);
      await a.init();
      const b = new SqliteRunStateStore(dbB);
      await b.init();
      return {
        a,
        b,
        close: async () => {
          dbA.close();
          dbB.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    async open() {
      const prefix = `t${++schema}_`;
      const poolA = new pg.Pool({ connectionString: postgres!.connectionString, max: 4 });
      const poolB = new pg.Pool({ connectionString: postgres!.connectionString, max: 4 });
      const a = new PostgresRunStateStore(poolA, { tablePrefix: prefix });
      const b = new PostgresRunStateStore(poolB, { tablePrefix: prefix });
      await Promise.all([a.init(), b.init()]);
      return { a, b, close: async () => void (await Promise.all([poolA.end(), poolB.end()])) };
    },
  },
];

beforeAll(async () => {
  postgres = await startPostgres();
});

afterAll(() => postgres?.stop());

/** A banker that pays after approval; `executions` is shared so runs in every "worker" are counted. */
function banker(executions: Executions, script: ScriptedModelInput[]) {
  const model = new ScriptedModel(script);
  return { agent: new Agent({ name: 'Banker', model, tools: [approvalTool('pay', executions)] }), model };
}

/** A run paused on `pay a` and `pay b`, both approved, stored as `runId`. */
async function storedApprovedRun(store: RunStateStore, runId: string) {
  const executions = new Executions();
  const { agent } = banker(executions, [[functionCall('pay', { target: 'a' }, { callId: 'a' }), functionCall('pay', { target: 'b' }, { callId: 'b' })]]);
  const paused = await run(agent, 'pay a and b');
  await store.save(runId, paused.state);
  await updatePausedRun(store, runId, banker(executions, []).agent, (state) => {
    for (const item of state.getInterruptions()) state.approve(item, { decidedBy: 'ops' });
  });
  return executions;
}

describe.each(backends)('$name store', (backend) => {
  let stores: Awaited<ReturnType<Backend['open']>>;
  beforeAll(async () => {
    stores = await backend.open();
  });
  afterAll(async () => stores.close());

  it('saves, loads and lists paused runs, with a revision per write and their schema version', async () => {
    const { a } = stores;
    const executions = new Executions();
    const paused = await run(banker(executions, [[functionCall('pay', { target: 'x' }, { callId: 'x' })]]).agent, 'pay x');
    const saved = await a.save('run-basic', paused.state);
    expect(saved).toMatchObject({ runId: 'run-basic', status: 'paused', revision: 1, schemaVersion: '3', claimedBy: undefined });
    expect((await a.load('run-basic'))!.state).toBe(paused.state.toString());
    expect((await a.save('run-basic', paused.state.toString(), { expectedRevision: 1 })).revision).toBe(2);
    expect((await a.list({ status: 'paused' })).map((r) => r.runId)).toContain('run-basic');
    expect(await a.load('nope')).toBeUndefined();
  });

  it('refuses a stale revision, a claimed or completed run, and garbage, leaving the stored run untouched', async () => {
    const { a, b } = stores;
    await storedApprovedRun(a, 'run-refuse');
    const before = (await a.load('run-refuse'))!;
    await expect(a.save('run-refuse', before.state, { expectedRevision: before.revision - 1 })).rejects.toMatchObject({ reason: 'conflict' });
    await expect(a.save('run-refuse', 'not json')).rejects.toMatchObject({ reason: 'invalid_state' });
    const claim = (await b.claim('run-refuse', { workerId: 'w1' }))!;
    await expect(a.save('run-refuse', before.state)).rejects.toMatchObject({ reason: 'claimed' });
    await b.finish(claim, before.state, 'completed');
    await expect(a.save('run-refuse', before.state)).rejects.toThrow(RunStoreError);
    expect(await a.claim('run-refuse', { workerId: 'w2' })).toBeUndefined();
    expect((await a.load('run-refuse'))!.state).toBe(before.state);
  });

  it('two workers racing: exactly one resumes, and each approved tool runs once', async () => {
    const { a, b } = stores;
    const executions = await storedApprovedRun(a, 'run-race');
    const worker = (store: RunStateStore, id: string) => {
      const { agent, model } = banker(executions, [echoOutputs('Paid')]);
      return { model, outcome: resumePausedRun(store, 'run-race', agent, { workerId: id }) };
    };
    const w1 = worker(a, 'w1');
    const w2 = worker(b, 'w2');
    const outcomes = await Promise.all([w1.outcome, w2.outcome]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['completed', 'not_claimed']);
    expect(executions.calls.sort()).toEqual(['pay:a', 'pay:b']);
    expect(w1.model.calls.length + w2.model.calls.length).toBe(1);
    const stored = (await a.load('run-race'))!;
    expect(stored.status).toBe('completed');
    expect(inspectRunState(stored.state)).toMatchObject({ status: 'completed' });
    // Resuming a completed run again does nothing.
    expect((await resumePausedRun(b, 'run-race', banker(executions, []).agent, { workerId: 'w3' })).status).toBe('not_claimed');
    expect(executions.calls).toHaveLength(2);
  });

  it('a failed resume is released untouched with its journal, and its committed tool steps are not executed again', async () => {
    const { a, b } = stores;
    const executions = await storedApprovedRun(a, 'run-crash');
    const before = (await a.load('run-crash'))!;
    // Worker 1 runs both payments, then the model fails.
    const failing = banker(executions, [modelError(new Error('model unavailable'))]);
    await expect(resumePausedRun(a, 'run-crash', failing.agent, { workerId: 'w1' })).rejects.toThrow('model unavailable');
    expect(executions.calls.sort()).toEqual(['pay:a', 'pay:b']);
    const released = (await a.load('run-crash'))!;
    expect(released).toMatchObject({ status: 'paused', revision: before.revision, state: before.state });
    expect((await a.committedSteps('run-crash')).map((s) => s.key).sort()).toEqual(['tool:a', 'tool:b']);

    // Worker 2 resumes: the payments are not made again, the model sees their outputs.
    const retry = banker(executions, [echoOutputs('Paid')]);
    const outcome = await resumePausedRun(b, 'run-crash', retry.agent, { workerId: 'w2' });
    expect(outcome.status).toBe('completed');
    expect(executions.calls.sort()).toEqual(['pay:a', 'pay:b']);
    expect(toolOutputsIn(retry.model.calls[0]!.request)).toEqual({ a: 'pay done for a', b: 'pay done for b' });
    // Finishing clears the journal: the stored state holds what it recorded.
    expect(await a.committedSteps('run-crash')).toEqual([]);
  });

  it('a worker that stops renewing loses the run to another after its lease; its late writes are refused', async () => {
    const { a, b } = stores;
    const executions = await storedApprovedRun(a, 'run-lease');
    // Worker 1 pays, then hangs on the model, and its renewals never reach the store.
    const abort = new AbortController();
    // (The hung request honours the abort, as an HTTP request does: a run ends only once its model call has.)
    const hung = banker(executions, [
      modelResponder(
        (call) => new Promise((_, reject) => call.request.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true })),
      ),
    ]);
    const partitioned = withoutRenewal(a);
    const first = resumePausedRun(partitioned, 'run-lease', hung.agent, { workerId: 'w1', leaseMs: 300, runOptions: { signal: abort.signal } });
    const firstSettled = first.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await waitFor(async () => (await a.committedSteps('run-lease')).length === 2);
    expect(await b.claim('run-lease', { workerId: 'w2' })).toBeUndefined(); // still held
    await new Promise((resolve) => setTimeout(resolve, 350));

    const retry = banker(executions, [echoOutputs('Paid')]);
    const outcome = await resumePausedRun(b, 'run-lease', retry.agent, { workerId: 'w2' });
    expect(outcome.status).toBe('completed');
    expect(executions.calls.sort()).toEqual(['pay:a', 'pay:b']);

    abort.abort();
    expect(await firstSettled).not.toBe('resolved');
    const stored = (await a.load('run-lease'))!;
    expect(stored.status).toBe('completed');
    expect(stored.state).toBe(outcome.status === 'completed' ? outcome.result.state.toString() : '');
  });

  it('fences writes by the claim: after another worker takes a lapsed claim, the first cannot write', async () => {
    const { a, b } = stores;
    await storedApprovedRun(a, 'run-fence');
    const stale = (await a.claim('run-fence', { workerId: 'w1', leaseMs: 20 }))!;
    await new Promise((resolve) => setTimeout(resolve, 40));
    const fresh = (await b.claim('run-fence', { workerId: 'w2' }))!;
    expect(fresh.token).not.toBe(stale.token);
    await expect(a.commitStep(stale, { key: 'tool:a', result: 'x' })).rejects.toMatchObject({ reason: 'claim_lost' });
    await expect(a.commitToolOutput(stale, { callId: 'a', item: '{}' })).rejects.toMatchObject({ reason: 'claim_lost' });
    await expect(a.renew(stale)).rejects.toMatchObject({ reason: 'claim_lost' });
    await expect(a.finish(stale, stale.state, 'completed')).rejects.toMatchObject({ reason: 'claim_lost' });
    await a.release(stale); // a no-op
    expect((await a.load('run-fence'))!).toMatchObject({ status: 'running', claimedBy: 'w2' });
    await b.release(fresh);
    expect((await a.load('run-fence'))!.status).toBe('paused');
  });

  it('updatePausedRun refuses a change made on a stale copy', async () => {
    const { a, b } = stores;
    const executions = new Executions();
    const paused = await run(banker(executions, [[functionCall('pay', { target: 'z' }, { callId: 'z' })]]).agent, 'pay z');
    await a.save('run-update', paused.state);
    const agent = banker(executions, []).agent;
    await expect(
      updatePausedRun(a, 'run-update', agent, async (state) => {
        // Someone else decides in the meantime.
        await updatePausedRun(b, 'run-update', agent, (other) => other.reject(other.getInterruptions()[0]!));
        state.approve(state.getInterruptions()[0]!);
      }),
    ).rejects.toMatchObject({ reason: 'conflict' });
    expect(inspectRunState((await a.load('run-update'))!.state)).toMatchObject({ pendingApprovals: [{ callId: 'z', status: 'rejected' }] });
  });
});

function withoutRenewal(store: RunStateStore): RunStateStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'renew') return async (claim: unknown) => claim;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
