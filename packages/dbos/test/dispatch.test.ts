import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { DurableRunsClient, DurableWorker } from '../src/index.js';
import { EFFECTS_TABLE, supportAgents } from './fixtures/supportAgents.js';

// Runs start when a worker has room, not at a poll: the worker's safety-net poll and the client's
// status poll are set to ten minutes here, so a run that starts and a result that comes back within
// the test came by notification. No figure is asserted (apps/bench measures the latency).
const NEVER = 600_000;

let postgres: PostgresServer;
let databaseUrl: string;
let db: pg.Pool;
let worker: DurableWorker;
let client: DurableRunsClient;

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = postgres.urlFor('durable_dispatch_test');
  const admin = new pg.Client({ connectionString: postgres.connectionString });
  await admin.connect();
  await admin.query('CREATE DATABASE durable_dispatch_test');
  await admin.end();
  db = new pg.Pool({ connectionString: databaseUrl });
  db.on('error', () => {});
  await db.query(EFFECTS_TABLE);
  worker = await DurableWorker.launch({
    databaseUrl,
    applicationVersion: 'v1',
    executorId: 'dispatch-worker',
    agents: supportAgents(db, { answerDelayMs: 200 }),
    queue: { pollingIntervalMs: NEVER, workerConcurrency: 2 },
    recoveryIntervalMs: false,
  });
  // Another process's view: a client of its own.
  client = await DurableRunsClient.create({ databaseUrl });
});

afterAll(async () => {
  await client?.close();
  await worker?.shutdown();
  await db?.end();
  postgres?.stop();
});

const result = (runId: string) => client.result(runId, { pollMs: NEVER, timeoutMs: 60_000 });

async function listeningFor(channel: string): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE $1', [`LISTEN ${channel}%`]);
  return rows.map((row) => row.pid);
}

describe('starting runs', () => {
  it('a run started from another client starts without a poll, and result() returns when it ends, not at its next poll', async () => {
    await client.startRun('support', 'Where is my order? [run:at-once-1]', { runId: 'at-once-1', applicationVersion: 'v1' });
    expect(await result('at-once-1')).toMatchObject({ state: 'completed', executorId: 'dispatch-worker' });
    // A pause and a decision: the resume is queued and started the same way.
    await client.startRun('support', 'Please refund my order [run:at-once-2]', { runId: 'at-once-2', applicationVersion: 'v1' });
    expect((await result('at-once-2')).state).toBe('paused');
    await client.approve('at-once-2', 'call_refund_order', { decidedBy: 'ops' });
    expect(await result('at-once-2')).toMatchObject({ state: 'completed', revision: 1 });
  });

  it('workerConcurrency holds exactly: runs queued beyond it wait for a slot, then start as slots come free', async () => {
    const runIds = Array.from({ length: 7 }, (_, i) => `capped-${i}`);
    await Promise.all(runIds.map((runId) => client.startRun('support', `Where is my order? [run:${runId}]`, { runId, applicationVersion: 'v1' })));
    let most = 0;
    const sampling = (async () => {
      for (;;) {
        const running = await worker.client.dbosClient.listWorkflows({ status: 'PENDING', workflow_id_prefix: 'capped-', loadInput: false, loadOutput: false });
        most = Math.max(most, running.length);
        const open = await worker.client.dbosClient.listWorkflows({ status: ['ENQUEUED', 'PENDING'], workflow_id_prefix: 'capped-', loadInput: false, loadOutput: false });
        if (open.length === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    for (const runId of runIds) expect((await result(runId)).state).toBe('completed');
    await sampling;
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('the worker’s listening session ended by the server: it listens again, and a run queued then still starts', async () => {
    const [before] = await listeningFor('baton_dbos_queued');
    expect(before).toBeDefined();
    await db.query('SELECT pg_terminate_backend($1)', [before]);
    await client.startRun('support', 'Where is my order? [run:relisten-1]', { runId: 'relisten-1', applicationVersion: 'v1' });
    expect((await result('relisten-1')).state).toBe('completed');
    expect((await listeningFor('baton_dbos_queued')).filter((pid) => pid !== before)).toHaveLength(1);
  });
});
