import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { run } from '@baton/core';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { PostgresRunStateStore, SqliteRunStateStore, resumePausedRun, updatePausedRun, type RunStateStore } from '../src/index.js';
import { crashAgent, readLedger, type CrashScenario } from './support/crashScenario.js';
import type { CrashWorkerJob } from './support/crashWorker.js';
import { killWorkerAt } from './support/killWorker.js';

// kill -9 a worker process in the middle of `resumePausedRun`, then retry in this process once its
// lease lapsed, and count the tools' executions in a ledger file the dead worker cannot roll back.

const LEASE_MS = 400;
const dir = mkdtempSync(join(tmpdir(), 'baton-crash-'));
let postgres: PostgresServer | undefined;
let trial = 0;

interface Backend {
  name: string;
  open(): { store: RunStateStore; spec: CrashWorkerJob['store']; close(): Promise<void> };
}

const backends: Backend[] = [
  {
    name: 'sqlite',
    open() {
      const file = join(dir, 'runs.db');
      const db = new Database(file);
      db.pragma('journal_mode = WAL');
      return { store: new SqliteRunStateStore(db), spec: { kind: 'sqlite', file }, close: async () => void db.close() };
    },
  },
  {
    name: 'postgres',
    open() {
      const pool = new pg.Pool({ connectionString: postgres!.connectionString, max: 4 });
      const spec = { kind: 'postgres' as const, connectionString: postgres!.connectionString, tablePrefix: 'crash_' };
      return { store: new PostgresRunStateStore(pool, { tablePrefix: spec.tablePrefix }), spec, close: () => pool.end() };
    },
  },
];

beforeAll(async () => {
  postgres = await startPostgres();
});

afterAll(async () => {
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(backends)('kill -9 during resumePausedRun ($name)', (backend) => {
  let opened: ReturnType<Backend['open']>;
  beforeAll(async () => {
    opened = backend.open();
    await opened.store.init();
  });
  afterAll(() => opened.close());

  /** Stores an approved paused run, kills a worker resuming it at `haltAt`, retries here; returns the ledger and the retry. */
  async function crashAndRetry(scenario: CrashScenario, haltAt: string[], killAfter: string[] = haltAt) {
    const { store, spec } = opened;
    const runId = `${backend.name}-${scenario}-${++trial}`;
    const ledger = join(dir, `${runId}.ledger`);
    const paused = await run(crashAgent(scenario, ledger).agent, 'go');
    await store.save(runId, paused.state);
    await updatePausedRun(store, runId, crashAgent(scenario, ledger).agent, (state) => {
      for (const item of state.getInterruptions()) state.approve(item, { decidedBy: 'ops' });
    });
    const markers = await killWorkerAt({ store: spec, runId, scenario, ledger, haltAt, leaseMs: LEASE_MS }, killAfter);
    const retry = crashAgent(scenario, ledger);
    // Another worker takes the run once the dead worker's lease has lapsed.
    for (;;) {
      const outcome = await resumePausedRun(store, runId, retry.agent, { workerId: 'retry' });
      if (outcome.status !== 'not_claimed') {
        expect(outcome.status).toBe('completed');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await store.committedSteps(runId)).toEqual([]);
    const seen = readLedger(ledger);
    // Every execution, before the pause, in the killed worker and in the retry, saw the run's id.
    expect([...seen.runIds]).toEqual([paused.state.runId]);
    return { seen, markers, retryModelCalls: retry.model.calls.length };
  }

  it('a tool killed after its step committed is not run again on retry (10 trials)', { timeout: 180_000 }, async () => {
    const counts: number[] = [];
    for (let i = 0; i < 10; i++) {
      const { seen } = await crashAndRetry('single', ['committed:tool:a']);
      counts.push(seen.count('pay:a'));
    }
    expect(counts).toEqual(Array(10).fill(1));
  });

  it('two approved calls: the one that finished and committed is not re-run while the other, in flight at the kill, is (5 trials)', { timeout: 120_000 }, async () => {
    const counts: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { seen, markers } = await crashAndRetry('pair', ['executed:pay:b'], ['committed:tool:a', 'executed:pay:b']);
      expect(markers).not.toContain('committed:tool:b');
      counts.push(`a=${seen.count('pay:a')} b=${seen.count('pay:b')}`);
    }
    expect(counts).toEqual(Array(5).fill('a=1 b=2'));
  });

  it('a tool the model called in a later turn of the resumed run, committed before the kill, is not re-run (5 trials)', { timeout: 120_000 }, async () => {
    const counts: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { seen, retryModelCalls } = await crashAndRetry('later', ['committed:tool:lookup_']);
      // The retry replays the model step that chose the call id, and asks the model only for the last turn.
      counts.push(`pay=${seen.count('pay:a')} lookup=${seen.count('lookup')} modelCalls=${retryModelCalls}`);
    }
    expect(counts).toEqual(Array(5).fill('pay=1 lookup=1 modelCalls=1'));
  });

  it('at least once: a tool killed after it ran but before its step committed runs again on retry (3 trials)', { timeout: 120_000 }, async () => {
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { seen, markers } = await crashAndRetry('single', ['executed:pay:a']);
      expect(markers.filter((m) => m.startsWith('committed:tool:'))).toEqual([]);
      counts.push(seen.count('pay:a'));
    }
    expect(counts).toEqual(Array(3).fill(2));
  });
});
