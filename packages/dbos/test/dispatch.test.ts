import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import type { WorkflowQueue } from '@dbos-inc/dbos-sdk';
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import { DurableRunsClient, DurableWorker } from '../src/index.js';
import { claimQueued, claimsInOneStatement } from '../src/internal/queueClaim.js';
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

describe('the claim in one statement', () => {
  // The same queued rows claimed by DBOS's own transaction and by Baton's one statement: the same rows
  // flip, in the same order, with the same fields. Another queue's name, so the worker leaves them be.
  const queue = { name: 'claim-compare', workerConcurrency: 3 } as WorkflowQueue;
  const seeds = [
    // key, status, version, priority, created_at, timeout ms
    ['old-low', 'ENQUEUED', 'v1', 1, 1, null],
    ['first', 'ENQUEUED', 'v1', 0, 2, null],
    ['no-version', 'ENQUEUED', null, 0, 3, null],
    ['other-version', 'ENQUEUED', 'v0', 0, 4, null],
    ['running', 'PENDING', 'v1', 0, 5, null],
    ['with-timeout', 'ENQUEUED', 'v1', 0, 6, 5000],
    ['beyond-room', 'ENQUEUED', 'v1', 0, 7, null],
    ['no-version-later', 'ENQUEUED', null, 0, 8, null],
  ] as const;

  async function seed(prefix: string): Promise<void> {
    for (const [key, status, version, priority, createdAt, timeoutMs] of seeds) {
      await db.query(
        `INSERT INTO dbos.workflow_status (workflow_uuid, status, name, queue_name, application_version, priority, created_at, updated_at, workflow_timeout_ms, recovery_attempts)
         VALUES ($1, $2, 'claim-compare-workflow', $3, $4, $5, $6, $6, $7, 0)`,
        [`${prefix}${key}`, status, queue.name, version, priority, createdAt, timeoutMs],
      );
    }
  }

  async function rows(prefix: string) {
    const { rows: found } = await db.query(
      `SELECT substr(workflow_uuid, $2) AS key, status, executor_id, application_version, owner_xid, recovery_attempts, rate_limited, application_name,
              workflow_deadline_epoch_ms IS NOT NULL AS has_deadline, started_at_epoch_ms IS NOT NULL AS started
         FROM dbos.workflow_status WHERE workflow_uuid LIKE $1 ORDER BY workflow_uuid`,
      [`${prefix}%`, prefix.length + 1],
    );
    return found;
  }

  it('claims what DBOS’s claim claims: the oldest of the highest priority of this version (or none), up to the room, marked the same way', async () => {
    const exec = DBOSExecutor.globalInstance!;
    const database = exec.systemDatabase;
    expect(claimsInOneStatement(queue, database)).toBe(true);
    await seed('dbos-');
    await seed('baton-');
    const version = 'v1';
    // DBOS's claim reads every queued row of the queue: give each its own queue for the comparison.
    await db.query(`UPDATE dbos.workflow_status SET queue_name = $1 WHERE workflow_uuid LIKE 'dbos-%'`, ['claim-compare-dbos']);
    await db.query(`UPDATE dbos.workflow_status SET queue_name = $1 WHERE workflow_uuid LIKE 'baton-%'`, ['claim-compare-baton']);
    const byDbos = await database.findAndMarkStartableWorkflows({ ...queue, name: 'claim-compare-dbos' } as WorkflowQueue, exec.executorID, version, undefined, 0, 0, 'owner-1');
    const byBaton = await claimQueued(database, { ...queue, name: 'claim-compare-baton' } as WorkflowQueue, exec.executorID, version, 3, 'owner-1');
    expect(byBaton.map((id) => id.slice('baton-'.length))).toEqual(byDbos.map((id) => id.slice('dbos-'.length)));
    expect(byBaton).toEqual(['baton-first', 'baton-no-version', 'baton-with-timeout']);
    expect(await rows('baton-')).toEqual(await rows('dbos-'));
    // A version that is not the latest takes its own rows only, not those of no version.
    const olderDbos = await database.findAndMarkStartableWorkflows({ ...queue, name: 'claim-compare-dbos' } as WorkflowQueue, exec.executorID, 'v0', undefined, 0, 0, 'owner-2');
    const olderBaton = await claimQueued(database, { ...queue, name: 'claim-compare-baton' } as WorkflowQueue, exec.executorID, 'v0', 3, 'owner-2');
    expect(olderBaton).toEqual(['baton-other-version']);
    expect(olderDbos).toEqual(['dbos-other-version']);
    expect(await rows('baton-')).toEqual(await rows('dbos-'));
    // No room, nothing claimed.
    expect(await claimQueued(database, { ...queue, name: 'claim-compare-baton' } as WorkflowQueue, exec.executorID, 'v1', 0, 'owner-3')).toEqual([]);
  });

  it('a queue with a limit shared with other workers is claimed by DBOS’s transaction', () => {
    const database = DBOSExecutor.globalInstance!.systemDatabase;
    expect(claimsInOneStatement({ ...queue, concurrency: 4 } as WorkflowQueue, database)).toBe(false);
    expect(claimsInOneStatement({ ...queue, rateLimit: { limitPerPeriod: 1, periodSec: 1 } } as WorkflowQueue, database)).toBe(false);
    expect(claimsInOneStatement({ ...queue, partitionConcurrency: 1 } as WorkflowQueue, database)).toBe(false);
  });
});
