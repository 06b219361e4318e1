import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { DurableRunsClient } from '../src/index.js';
import { EFFECTS_TABLE } from './fixtures/supportAgents.js';
import { startWorker, type WorkerProcess } from './support/workers.js';

// Worker processes on a real PostgreSQL, killed with SIGKILL: measured, not assumed. Every model
// call and tool execution is counted in a table outside the workers.
// Each trial restarts a worker process: on a busy machine that alone takes seconds.
const TRIALS = Number(process.env.BATON_DBOS_TRIALS ?? 5);
const DATABASE = 'durable_crash_test';

let postgres: PostgresServer;
let databaseUrl: string;
let db: pg.Pool;
let client: DurableRunsClient;
const workers = new Map<string, WorkerProcess>();

async function start(executorId: string, version = 'v1', extra: { RENAME_REFUND?: string; RENAME_LOOKUP?: string } = {}): Promise<WorkerProcess> {
  const worker = await startWorker({ DATABASE_URL: databaseUrl, EXECUTOR_ID: executorId, APP_VERSION: version, ANSWER_DELAY_MS: '1500', ...extra });
  workers.set(executorId, worker);
  return worker;
}

async function effects(runId: string): Promise<Array<{ kind: string; detail: string | null }>> {
  const { rows } = await db.query<{ kind: string; detail: string | null }>('SELECT kind, detail FROM test_effects WHERE run_marker = $1 ORDER BY id', [runId]);
  return rows;
}

/** Waits until the run's step named `name` has committed its output (or, with `failed`, its error). */
async function committed(runId: string, name: string, outcome: 'output' | 'failed' = 'output'): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const steps = (await client.dbosClient.listWorkflowSteps(runId)) ?? [];
    if (steps.some((step) => step.name === name && step.completedAtEpochMs !== undefined && (outcome === 'output' ? step.error === null : step.error !== null))) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`step ${name} of ${runId} never committed its ${outcome}`);
}

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = postgres.urlFor(DATABASE);
  const admin = new pg.Client({ connectionString: postgres.connectionString });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  db = new pg.Pool({ connectionString: databaseUrl });
  db.on('error', () => {});
  await db.query(EFFECTS_TABLE);
  // Three workers launching together on a fresh database: the migration runs once.
  await Promise.all([start('w-a'), start('w-b'), start('w-c')]);
  client = await DurableRunsClient.create({ databaseUrl });
});

afterAll(async () => {
  await Promise.all([...workers.values()].map((worker) => worker.stop()));
  await client?.close();
  await db?.end();
  postgres?.stop();
});

describe('durable runs on worker processes', () => {
  it(`a worker killed right after a tool step committed (model call in flight): another finishes the run, the tool ran once (${TRIALS} trials)`, async () => {
    const outcomes: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const runId = `crash-${trial}`;
      await client.startRun('support', `Where is my order? [run:${runId}]`, { runId, applicationVersion: 'v1' });
      await committed(runId, 'tool:call_lookup_order');
      const owner = (await client.status(runId)).executorId!;
      await workers.get(owner)!.kill();
      const done = await client.result(runId, { timeoutMs: 60_000 });
      expect(done.state).toBe('completed');
      expect(done.executorId).not.toBe(owner);
      const ran = await effects(runId);
      // The tool once, the first model call once (both committed); the answer at least once.
      expect(ran.filter((effect) => effect.kind === 'tool:lookup_order')).toHaveLength(1);
      expect(ran.filter((effect) => effect.kind === 'model' && effect.detail === '0')).toHaveLength(1);
      expect(ran.filter((effect) => effect.kind === 'model' && effect.detail === '1').length).toBeGreaterThanOrEqual(1);
      outcomes.push(`${runId}: killed ${owner}, finished on ${done.executorId}`);
      await start(owner); // the same executor id comes back for the next trial
    }
    expect(outcomes).toHaveLength(TRIALS);
  }, 60_000 + TRIALS * 40_000);

  it(`a worker killed while a model call is in flight: the call is made again, the tool after it runs once (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const runId = `inflight-${trial}`;
      await client.startRun('support', `Where is my order? [slow-start] [run:${runId}]`, { runId, applicationVersion: 'v1' });
      while ((await effects(runId)).length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
      const owner = (await client.status(runId)).executorId!;
      await workers.get(owner)!.kill();
      const done = await client.result(runId, { timeoutMs: 60_000 });
      expect(done.state).toBe('completed');
      const ran = await effects(runId);
      expect(ran.filter((effect) => effect.kind === 'model' && effect.detail === '0')).toHaveLength(2);
      expect(ran.filter((effect) => effect.kind === 'tool:lookup_order')).toHaveLength(1);
      await start(owner);
    }
  }, 60_000 + TRIALS * 40_000);

  it('a failed step replayed after a crash fails the run with the error a live failure gives (its class, message)', async () => {
    // Live: the answer's model call fails on a worker that stays up.
    const live = 'answer-fails-live';
    await client.startRun('support', `Where is my order? [answer-fails] [run:${live}]`, { runId: live, applicationVersion: 'v1' });
    const liveResult = await client.result(live, { timeoutMs: 60_000 });
    expect(liveResult).toMatchObject({ state: 'failed', error: { name: 'ModelTimeoutError', message: 'Model call timed out after 1234ms.' } });

    // Replayed: an uncommitted row under the key of the run's first event holds its event writes, so
    // the workflow waits for them after the failed step committed; its worker is killed there, and
    // the worker that takes the run over replays the recorded failure.
    const runId = 'answer-fails-replayed';
    const hold = await db.connect();
    let owner: string;
    try {
      await hold.query('BEGIN');
      await hold.query(`INSERT INTO baton_dbos.run_events (run_id, revision, seq, event, incarnation) VALUES ($1, 0, 0, '{}', 'held')`, [runId]);
      await client.startRun('support', `Where is my order? [answer-fails] [run:${runId}]`, { runId, applicationVersion: 'v1' });
      await committed(runId, 't2:model', 'failed');
      const status = await client.status(runId);
      expect(status.state).toBe('running');
      owner = status.executorId!;
      await workers.get(owner)!.kill();
    } finally {
      await hold.query('ROLLBACK');
      hold.release();
    }
    const replayed = await client.result(runId, { timeoutMs: 60_000 });
    expect(replayed.executorId).not.toBe(owner);
    expect(replayed.state).toBe('failed');
    expect(replayed.error).toEqual(liveResult.error);
    // The failed call was recorded, not made again.
    expect((await effects(runId)).map((effect) => `${effect.kind}:${effect.detail ?? ''}`)).toEqual(['model:0', 'tool:lookup_order:call_lookup_order', 'model:1']);
    await start(owner);
  });

  it('an approval wait survives a restart of every worker, then resumes on approve from another process', async () => {
    const runId = 'wait-1';
    await client.startRun('support', `Please refund my order [run:${runId}]`, { runId, applicationVersion: 'v1' });
    expect((await client.result(runId, { timeoutMs: 60_000 })).state).toBe('paused');
    const ids = [...workers.keys()];
    await Promise.all(ids.map((id) => workers.get(id)!.kill()));
    // Restarted together: on a busy machine a worker process takes tens of seconds to start.
    await Promise.all(ids.map((id) => start(id)));
    await client.approve(runId, 'call_refund_order', { decidedBy: 'ops' });
    const done = await client.result(runId, { timeoutMs: 60_000 });
    expect(done.state).toBe('completed');
    expect((await effects(runId)).filter((effect) => effect.kind === 'tool:refund')).toHaveLength(1);
  }, 240_000);

  it('two versions side by side: v1 runs run and resume only on v1 workers', async () => {
    const v2 = await start('w-v2', 'v2');
    await client.startRun('support', 'Where is my order? [run:on-v2]', { runId: 'on-v2', applicationVersion: 'v2' });
    await client.startRun('support', 'Please refund my order [run:on-v1]', { runId: 'on-v1', applicationVersion: 'v1' });
    expect((await client.result('on-v2', { timeoutMs: 60_000 })).executorId).toBe('w-v2');
    const paused = await client.result('on-v1', { timeoutMs: 60_000 });
    expect(paused.state).toBe('paused');
    expect(paused.executorId).not.toBe('w-v2');
    await client.approve('on-v1', 'call_refund_order');
    const done = await client.result('on-v1', { timeoutMs: 60_000 });
    expect(done).toMatchObject({ state: 'completed', applicationVersion: 'v1' });
    expect(done.executorId).not.toBe('w-v2');
    // Moved on purpose: a paused v1 run continued by the v2 worker.
    await client.startRun('support', 'Please refund my order [run:moved]', { runId: 'moved', applicationVersion: 'v1' });
    expect((await client.result('moved', { timeoutMs: 60_000 })).applicationVersion).toBe('v1');
    await client.decide('moved', [{ callId: 'call_refund_order', approved: true }], { applicationVersion: 'v2' });
    expect(await client.result('moved', { timeoutMs: 60_000 })).toMatchObject({ state: 'completed', applicationVersion: 'v2', executorId: 'w-v2' });
    await v2.stop();
    workers.delete('w-v2');
  });

  it('a run whose agent graph changed under the same version fails with the resumability report; the worker lives on', async () => {
    const runId = 'renamed-1';
    await client.startRun('support', `Please refund my order [run:${runId}]`, { runId, applicationVersion: 'v1' });
    expect((await client.result(runId, { timeoutMs: 60_000 })).state).toBe('paused');
    const ids = [...workers.keys()];
    await Promise.all(ids.map((id) => workers.get(id)!.stop()));
    const renamed = await start('w-renamed', 'v1', { RENAME_REFUND: '1' });
    await client.approve(runId, 'call_refund_order');
    const failed = await client.result(runId, { timeoutMs: 60_000 });
    expect(failed.state).toBe('failed');
    expect(failed.error?.name).toBe('ResumabilityError');
    expect(failed.error?.message).toContain('refund_order');
    expect(failed.error?.report).toMatchObject({ ok: false });
    // The same worker still serves other runs.
    await client.startRun('support', 'Where is my order? [run:after-rename]', { runId: 'after-rename', applicationVersion: 'v1' });
    expect((await client.result('after-rename', { timeoutMs: 60_000 })).state).toBe('completed');
    await renamed.stop();
    workers.delete('w-renamed');
    for (const id of ids) await start(id);
  });

  it('a run in flight whose agent graph changed under the same version fails with a resumability report, before any step runs on the new graph', async () => {
    const runId = 'inflight-renamed-1';
    await client.startRun('support', `Where is my order? [run:${runId}]`, { runId, applicationVersion: 'v1' });
    await committed(runId, 'tool:call_lookup_order');
    // Every worker dies with the answer in flight; a worker whose lookup tool was renamed takes the run over.
    const ids = [...workers.keys()];
    await Promise.all(ids.map((id) => workers.get(id)!.kill()));
    const ranBefore = (await effects(runId)).length;
    const renamed = await start('w-lookup-renamed', 'v1', { RENAME_LOOKUP: '1' });
    const failed = await client.result(runId, { timeoutMs: 60_000 });
    expect(failed).toMatchObject({ state: 'failed', executorId: 'w-lookup-renamed', error: { name: 'ResumabilityError', report: { ok: false } } });
    expect(failed.error?.message).toContain('Agent "Support" has no tool "lookup_order" any more');
    expect(failed.error?.message).not.toContain('deterministic');
    expect((await effects(runId)).length).toBe(ranBefore); // nothing ran on the new graph: no model call, no tool
    await renamed.stop();
    workers.delete('w-lookup-renamed');
    for (const id of ids) await start(id);
  });

  it('one client follows 20 runs while a worker is killed and PostgreSQL restarts: each follower sees every event once, and ends', async () => {
    const runIds = Array.from({ length: 20 }, (_, i) => `follow20-${i}`);
    await Promise.all(runIds.map((runId) => client.startRun('support', `Where is my order? [run:${runId}]`, { runId, applicationVersion: 'v1' })));
    const seen = runIds.map(() => [] as string[]);
    const following = Promise.all(
      runIds.map(async (runId, i) => {
        for await (const event of client.events(runId, { follow: true })) seen[i]!.push(`${event.revision}:${event.seq}:${(event.event as { name?: string }).name}`);
      }),
    );
    // Mid-run: the tool outputs are in, the answers (1.5 s) in flight.
    for (let i = 0; i < 600 && seen.filter((events) => events.length >= 2).length < 10; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const owner = (await client.status(runIds[seen.findIndex((events) => events.length >= 2)]!)).executorId!;
    await workers.get(owner)!.kill();
    postgres.pause();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    postgres.start();

    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([following, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`followers still waiting: ${JSON.stringify(seen)}`)), 120_000)))]);
    clearTimeout(timer);
    const statuses = await Promise.all(runIds.map((runId) => client.status(runId)));
    for (const [i, runId] of runIds.entries()) {
      expect(seen[i], `${runId}: ${JSON.stringify(statuses[i])}`).toEqual(['0:0:tool_called', '0:1:tool_output', '0:2:message_output_created']);
      expect(await client.status(runId)).toMatchObject({ state: 'completed', finalOutput: 'Done: order 1234: charged twice' });
    }
    await start(owner);
    for (const worker of workers.values()) expect(worker.process.exitCode).toBeNull();
  });

  it('a database outage mid-run stops the workers cleanly; they finish the run when it returns', async () => {
    const runId = 'outage-1';
    await client.startRun('support', `Where is my order? [run:${runId}]`, { runId, applicationVersion: 'v1' });
    await committed(runId, 'tool:call_lookup_order');
    postgres.pause();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    postgres.start();
    const done = await client.result(runId, { timeoutMs: 90_000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${[...workers.values()].map((worker) => `--- ${worker.executorId}:\n${worker.output()}`).join('\n')}`);
    });
    expect(done.state).toBe('completed');
    expect((await effects(runId)).filter((effect) => effect.kind === 'tool:lookup_order')).toHaveLength(1);
    for (const worker of workers.values()) expect(worker.process.exitCode).toBeNull();
  });
});
