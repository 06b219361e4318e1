import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { DurableRunsClient, DurableWorker, RUN_WORKFLOW_NAME, type RunEvent } from '../src/index.js';
import { EFFECTS_TABLE, supportAgents } from './fixtures/supportAgents.js';

// Following runs' events from a client: many followers on one client, a listening session the
// server ends, a PostgreSQL restart. The model takes 800 ms once a tool result is in, so the runs
// are in flight while the followers follow.
let postgres: PostgresServer;
let databaseUrl: string;
let db: pg.Pool;
let worker: DurableWorker;

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = postgres.urlFor('durable_follow_test');
  const admin = new pg.Client({ connectionString: postgres.connectionString });
  await admin.connect();
  await admin.query('CREATE DATABASE durable_follow_test');
  await admin.end();
  db = new pg.Pool({ connectionString: databaseUrl });
  db.on('error', () => {});
  await db.query(EFFECTS_TABLE);
  worker = await DurableWorker.launch({
    databaseUrl,
    applicationVersion: 'v1',
    executorId: 'follow-worker',
    agents: supportAgents(db, { answerDelayMs: 800 }),
    queue: { pollingIntervalMs: 100, workerConcurrency: 16 },
    recoveryIntervalMs: false,
  });
});

afterAll(async () => {
  await worker?.shutdown();
  await db?.end();
  postgres?.stop();
});

const names = (events: readonly RunEvent[]) => events.map((event) => `${event.revision}:${event.seq}:${(event.event as { name?: string }).name}`);

async function follow(client: DurableRunsClient, runId: string, seen: RunEvent[] = []): Promise<RunEvent[]> {
  for await (const event of client.events(runId, { follow: true })) seen.push(event);
  return seen;
}

async function stored(client: DurableRunsClient, runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of client.events(runId)) events.push(event);
  return events;
}

function within<T>(ms: number, what: string, pending: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms)));
  return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The backend pids of the sessions listening for run events. */
async function listeningSessions(): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN baton_dbos_run_events%'");
  return rows.map((row) => row.pid);
}

describe('following runs', () => {
  it('twelve followers on one client (a pool of four connections) all see every event and end; close() returns', async () => {
    const client = await DurableRunsClient.create({ databaseUrl });
    const runIds = Array.from({ length: 12 }, (_, i) => `many-${i}`);
    await Promise.all(runIds.map((runId) => client.startRun('support', `Where is my order? [run:${runId}]`, { runId, applicationVersion: 'v1' })));
    const followed = await within(60_000, 'twelve followers', Promise.all(runIds.map((runId) => follow(client, runId))));
    for (const [i, runId] of runIds.entries()) {
      expect(names(followed[i]!)).toEqual(['0:0:tool_called', '0:1:tool_output', '0:2:message_output_created']);
      expect(names(followed[i]!)).toEqual(names(await stored(client, runId)));
    }
    // One listening session for the whole client.
    expect(await listeningSessions()).toHaveLength(1);
    const closing = Date.now();
    await within(10_000, 'close()', client.close());
    expect(Date.now() - closing).toBeLessThan(6000);
    await until('the listening session ends', async () => (await listeningSessions()).length === 0, 5000);
  });

  it('the server ends the listening session mid-run: the follower reconnects and sees every event once', async () => {
    const client = await DurableRunsClient.create({ databaseUrl });
    try {
      const runId = 'listen-killed-1';
      await client.startRun('support', `Where is my order? [run:${runId}]`, { runId, applicationVersion: 'v1' });
      const seen: RunEvent[] = [];
      const following = follow(client, runId, seen);
      await until('the follower saw the tool output', () => seen.length >= 2);
      // The follower may read the stored events before its listening session has connected (a loaded machine).
      await until('the listening session', async () => (await listeningSessions()).length > 0, 10_000);
      const [before] = await listeningSessions();
      expect(before).toBeDefined();
      await db.query('SELECT pg_terminate_backend($1)', [before]);
      await until('a new listening session', async () => (await listeningSessions()).some((pid) => pid !== before), 5000);
      await within(30_000, 'the follower', following);
      expect(names(seen)).toEqual(['0:0:tool_called', '0:1:tool_output', '0:2:message_output_created']);
      expect(names(seen)).toEqual(names(await stored(client, runId)));
    } finally {
      await client.close();
    }
  });

  it('PostgreSQL restarts while runs are followed: the followers go on from where they were, the process lives; close() returns during the outage', async () => {
    // What the clients' DBOS writes to the application's console meanwhile (the worker's own DBOS logs apart).
    const printed: string[] = [];
    const spies = (['warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' '))),
    );
    const client = await DurableRunsClient.create({ databaseUrl });
    const other = await DurableRunsClient.create({ databaseUrl });
    try {
      const runIds = ['restart-0', 'restart-1', 'restart-2'];
      await Promise.all(runIds.map((runId) => client.startRun('support', `Where is my order? [run:${runId}]`, { runId, applicationVersion: 'v1' })));
      const seen = runIds.map(() => [] as RunEvent[]);
      const following = Promise.all(runIds.map((runId, i) => follow(client, runId, seen[i])));
      // A run no worker serves (v9) stays queued: only closing its client ends its follower.
      await other.dbosClient.enqueue(
        { queueName: 'baton-runs', workflowName: RUN_WORKFLOW_NAME, workflowID: 'never-1', appVersion: 'v9' },
        { runId: 'never-1', agent: 'support', revision: 0, start: { kind: 'input', input: 'Where is my order? [run:never-1]' } },
      );
      const stuck = follow(other, 'never-1');
      await until('every follower saw a tool output', () => seen.every((events) => events.length >= 2));

      postgres.pause();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const closing = Date.now();
      await within(10_000, 'close() during the outage', other.close());
      expect(Date.now() - closing).toBeLessThan(6000);
      expect(await within(5000, 'the closed client’s follower', stuck)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      postgres.start();

      await within(90_000, 'the followers after the restart', following);
      for (const [i, runId] of runIds.entries()) {
        expect(names(seen[i]!)).toEqual(['0:0:tool_called', '0:1:tool_output', '0:2:message_output_created']);
        expect(names(seen[i]!)).toEqual(names(await stored(client, runId)));
        expect((await client.status(runId)).state).toBe('completed');
      }
      // A pooled connection the restart ended is the client's own business: nothing about it in the app's stderr.
      expect(printed.filter((line) => line.startsWith('DBOS client:') && /Unexpected error/.test(line))).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
      postgres.start();
      await client.close();
      await other.close();
      await worker.client.dbosClient.cancelWorkflow('never-1').catch(() => undefined);
    }
  });
});
