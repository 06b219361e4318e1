import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { DurableRunError, DurableRunsClient, DurableWorker, RUN_WORKFLOW_NAME } from '../src/index.js';
import { EFFECTS_TABLE, supportAgents } from './fixtures/supportAgents.js';

// One worker in this process, on a real PostgreSQL: runs, approvals from a client, expiries, events,
// and the errors a client gets for requests that make no sense.
// Warnings the process gets while the worker and clients run (pg's deprecations among them).
const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));

let postgres: PostgresServer;
let db: pg.Pool;
let worker: DurableWorker;
let client: DurableRunsClient;

beforeAll(async () => {
  postgres = await startPostgres();
  const databaseUrl = postgres.urlFor('durable_worker_test');
  const admin = new pg.Client({ connectionString: postgres.connectionString });
  await admin.connect();
  await admin.query('CREATE DATABASE durable_worker_test');
  await admin.end();
  db = new pg.Pool({ connectionString: databaseUrl });
  await db.query(EFFECTS_TABLE);
  worker = await DurableWorker.launch({
    databaseUrl,
    applicationVersion: 'v1',
    executorId: 'test-worker',
    agents: supportAgents(db),
    queue: { pollingIntervalMs: 100 },
    approvalTtlMs: 60_000,
    recoveryIntervalMs: false,
  });
  client = worker.client;
});

afterAll(async () => {
  await worker?.shutdown();
  await db?.end();
  postgres?.stop();
});

/** A run for version v9, which no worker serves, put on the queue with DBOS's own client. */
async function enqueueUnserved(on: DurableRunsClient, runId: string): Promise<string> {
  await on.dbosClient.enqueue(
    { queueName: 'baton-runs', workflowName: RUN_WORKFLOW_NAME, workflowID: runId, appVersion: 'v9' },
    { runId, agent: 'support', revision: 0, start: { kind: 'input', input: `Where is my order? [run:${runId}]` } },
  );
  return runId;
}

async function effects(runId: string): Promise<string[]> {
  const { rows } = await db.query<{ kind: string }>('SELECT kind FROM test_effects WHERE run_marker = $1 ORDER BY id', [runId]);
  return rows.map((row) => row.kind);
}

describe('a durable worker', () => {
  it('a step that fails ends its run failed with the step’s own error, and the worker goes on', async () => {
    const runId = await client.startRun('support', 'Where is my order? [run:step-fails] [model-fails]', { runId: 'step-fails' });
    expect(await client.result(runId)).toMatchObject({ state: 'failed', error: { name: 'ModelBehaviorError', message: expect.stringContaining('The model answered with nonsense.') } });
    const next = await client.startRun('support', 'Where is my order? [run:after-failure]', { runId: 'after-failure' });
    expect(await client.result(next)).toMatchObject({ state: 'completed', finalOutput: 'Done: order 1234: charged twice' });
  });

  it('runs an agent from the queue: each step once, the run id reaching the tools, the events readable by run id', async () => {
    const runId = await worker.startRun('support', 'Where is my order? [run:plain-1]', { runId: 'plain-1' });
    const status = await client.result(runId);
    expect(status).toMatchObject({ runId, revision: 0, state: 'completed', finalOutput: 'Done: order 1234: charged twice', lastAgent: 'Support', applicationVersion: 'v1', executorId: 'test-worker' });
    expect(await effects(runId)).toEqual(['model', 'tool:lookup_order', 'model']);
    // DBOS records each step's output as its JSON text (no tree for its serializer to walk).
    const steps = (await client.dbosClient.listWorkflowSteps(runId)) ?? [];
    expect(steps.filter((step) => step.name === 't1:model').map((step) => typeof (step.output as Record<string, unknown> | undefined)?.['~baton.json'])).toEqual(['string']);
    const events = [];
    for await (const event of client.events(runId)) events.push(event.event as { name?: string });
    expect(events.map((event) => event.name)).toEqual(['tool_called', 'tool_output', 'message_output_created']);
  });

  it('starting the same run id twice starts it once', async () => {
    await Promise.all([worker.startRun('support', 'Twice? [run:twice-1]', { runId: 'twice-1' }), worker.startRun('support', 'Twice? [run:twice-1]', { runId: 'twice-1' })]);
    await client.result('twice-1');
    expect(await effects('twice-1')).toEqual(['model', 'tool:lookup_order', 'model']);
  });

  it('result() of a run this client just started reads its status once, when the run has ended', async () => {
    await client.result(await client.startRun('support', 'Where is my order? [run:fresh-warm]', { runId: 'fresh-warm' })); // the client now listens for run endings
    const listed = vi.spyOn(client.dbosClient, 'listWorkflows');
    const fetched = vi.spyOn(client.dbosClient, 'getWorkflow');
    try {
      const runId = await client.startRun('support', 'Where is my order? [run:fresh-1]', { runId: 'fresh-1' });
      expect(await client.result(runId)).toMatchObject({ runId, revision: 0, state: 'completed', finalOutput: 'Done: order 1234: charged twice' });
      expect(listed).toHaveBeenCalledTimes(1);
      expect(fetched).not.toHaveBeenCalled();
    } finally {
      listed.mockRestore();
      fetched.mockRestore();
    }
    // A run that ended before its result is asked for: read at once.
    const early = await client.startRun('support', 'Where is my order? [run:fresh-2]', { runId: 'fresh-2' });
    await expect.poll(async () => (await client.status(early)).state, { timeout: 30_000 }).toBe('completed');
    expect(await client.result(early, { pollMs: 600_000 })).toMatchObject({ state: 'completed' });
  });

  it('result() of a run id started again after it ended returns the outcome at once, not at the next poll', async () => {
    const runId = await client.startRun('support', 'Where is my order? [run:again-1]', { runId: 'again-1' });
    await client.result(runId);
    // The same id again: nothing is started (no notification will come), so the client must read.
    await client.startRun('support', 'Where is my order? [run:again-1]', { runId: 'again-1' });
    const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000).unref());
    expect(await Promise.race([client.result(runId, { pollMs: 600_000 }), hung])).toMatchObject({ runId, state: 'completed' });
    expect(await effects(runId)).toEqual(['model', 'tool:lookup_order', 'model']);
  });

  it('pauses for approval without holding the worker, and continues when a client approves', async () => {
    const runId = await worker.startRun('support', 'Please refund my order [run:refund-1]', { runId: 'refund-1' });
    const paused = await client.result(runId);
    expect(paused.state).toBe('paused');
    expect(paused.pending).toEqual([
      expect.objectContaining({ callId: 'call_refund_order', toolName: 'refund_order', arguments: '{"orderId":"1234","amountUsd":42}', agent: 'Support', expiresAt: expect.any(String) }),
    ]);
    await client.approve(runId, 'call_refund_order', { decidedBy: 'ops@example.com', reason: 'duplicate charge' });
    const done = await client.result(runId);
    expect(done).toMatchObject({ state: 'completed', revision: 1, finalOutput: 'Done: order 1234: charged twice | refunded $42 for 1234' });
    expect(await effects(runId)).toEqual(['model', 'tool:lookup_order', 'model', 'tool:refund', 'model']);
  });

  it('a status read brings back no input nor state: a completed run keeps no state; a paused one keeps it for its resume', async () => {
    const runId = await worker.startRun('support', 'Please refund my order [run:refund-lean]', { runId: 'refund-lean' });
    expect((await client.result(runId)).state).toBe('paused');
    const paused = await client.dbosClient.getWorkflow(runId);
    expect(typeof (paused?.output as { state?: unknown }).state).toBe('string');
    // The resume's input holds the whole paused state: reading its status must not load it.
    const reader = await DurableRunsClient.create({ databaseUrl: postgres.urlFor('durable_worker_test') });
    const reads: Array<{ loadInput?: boolean } | string> = [];
    const dbos = reader.dbosClient;
    const listWorkflows = dbos.listWorkflows.bind(dbos);
    const getWorkflow = dbos.getWorkflow.bind(dbos);
    dbos.listWorkflows = ((input: Parameters<typeof listWorkflows>[0]) => (reads.push({ ...(input.loadInput === undefined ? {} : { loadInput: input.loadInput }) }), listWorkflows(input))) as typeof dbos.listWorkflows;
    dbos.getWorkflow = ((id: string) => (reads.push(`getWorkflow ${id}`), getWorkflow(id))) as typeof dbos.getWorkflow;
    try {
      await client.approve(runId, 'call_refund_order');
      const done = await reader.result(runId);
      expect(done).toMatchObject({ state: 'completed', revision: 1, finalOutput: 'Done: order 1234: charged twice | refunded $42 for 1234' });
      expect(await reader.status(runId)).toEqual(done);
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((read) => typeof read === 'object' && read.loadInput === false)).toBe(true);
    } finally {
      await reader.close();
    }
    const completed = await client.dbosClient.getWorkflow(`${runId}:resume:1`);
    expect(completed?.output).toMatchObject({ status: 'completed', finalOutput: 'Done: order 1234: charged twice | refunded $42 for 1234' });
    expect(completed?.output).not.toHaveProperty('state');
  });

  it('paused runs do not hold the worker: with more of them than its concurrency (8), each with a waiting approval timer, a new run still runs at once', async () => {
    const paused = Array.from({ length: 9 }, (_, i) => `held-${i}`);
    await Promise.all(paused.map((runId) => worker.startRun('support', `Please refund my order [run:${runId}]`, { runId })));
    for (const runId of paused) expect((await client.result(runId)).state).toBe('paused');
    const started = Date.now();
    await worker.startRun('support', 'Where is my order? [run:after-held]', { runId: 'after-held' });
    expect((await client.result('after-held', { timeoutMs: 20_000 })).state).toBe('completed');
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const runId of paused) await client.deleteRun(runId);
  });

  it('a rejection reaches the model, and the refund never runs', async () => {
    const runId = await worker.startRun('support', 'Please refund my order [run:refund-2]', { runId: 'refund-2' });
    await client.result(runId);
    await client.reject(runId, 'call_refund_order', { decidedBy: 'ops', message: 'Refunds over $40 need a manager.' });
    const done = await client.result(runId);
    expect(done.finalOutput).toBe('Done: order 1234: charged twice | Refunds over $40 need a manager.');
    expect(await effects(runId)).not.toContain('tool:refund');
  });

  it('racing approvers: the run continues once; a different decision taken second is refused', async () => {
    const runId = await worker.startRun('support', 'Please refund my order [run:race-1]', { runId: 'race-1' });
    await client.result(runId);
    const outcomes = await Promise.allSettled([
      client.approve(runId, 'call_refund_order', { decidedBy: 'ada' }),
      client.approve(runId, 'call_refund_order', { decidedBy: 'bob' }),
      client.reject(runId, 'call_refund_order', { decidedBy: 'eve' }),
    ]);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason as DurableRunError);
    // Never "not paused": the losers learn who decided, and what.
    expect(refused.map((error) => error.reason)).toEqual(['already_decided', 'already_decided']);
    for (const error of refused) expect(error.message).toMatch(/call_refund_order: (approved by ada|approved by bob|rejected by eve)/);
    const done = await client.result(runId);
    expect(done.revision).toBe(1);
    expect((await effects(runId)).filter((kind) => kind === 'tool:refund').length).toBeLessThanOrEqual(1);
  });

  it('the same approval sent twice at once (a retried request) is taken once, and both are told it was', async () => {
    const runId = await worker.startRun('support', 'Please refund my order [run:race-2]', { runId: 'race-2' });
    await client.result(runId);
    await Promise.all([client.approve(runId, 'call_refund_order', { decidedBy: 'ada' }), client.approve(runId, 'call_refund_order', { decidedBy: 'ada' })]);
    expect(await client.result(runId)).toMatchObject({ state: 'completed', revision: 1 });
    const resume = await client.dbosClient.getWorkflow('race-2:resume:1');
    expect((resume?.input?.[0] as { start: { decisions: unknown[] } }).start.decisions).toEqual([expect.objectContaining({ callId: 'call_refund_order', approved: true, decidedBy: 'ada' })]);
    expect((await effects(runId)).filter((kind) => kind === 'tool:refund')).toHaveLength(1);
  });

  it('refuses requests that make no sense, naming what is wrong', async () => {
    await expect(client.status('no-such-run')).rejects.toMatchObject({ reason: 'unknown_run', message: expect.stringContaining('"no-such-run"') });
    await expect(client.approve('no-such-run', 'call_x')).rejects.toBeInstanceOf(DurableRunError);
    const runId = await worker.startRun('support', 'Please refund my order [run:refund-3]', { runId: 'refund-3' });
    await client.result(runId);
    await expect(client.approve(runId, 'call_wrong')).rejects.toMatchObject({ reason: 'unknown_call', message: expect.stringContaining('pending: call_refund_order (refund_order)') });
    await client.approve(runId, 'call_refund_order');
    await client.result(runId);
    await expect(client.approve(runId, 'call_refund_order')).rejects.toMatchObject({ reason: 'not_paused', message: expect.stringContaining('is completed') });
    await expect(worker.startRun('nobody', 'hi')).rejects.toThrow(/No agent is registered as "nobody"; registered: support/);
    // An empty decision would use up a revision for nothing; a call decided twice in one request is a mistake.
    const again = await worker.startRun('support', 'Please refund my order [run:refund-4]', { runId: 'refund-4' });
    await client.result(again);
    await expect(client.decide(again, [])).rejects.toMatchObject({ reason: 'invalid_options', message: expect.stringContaining('at least one pending call') });
    await expect(
      client.decide(again, [
        { callId: 'call_refund_order', approved: true },
        { callId: 'call_refund_order', approved: false },
      ]),
    ).rejects.toMatchObject({ reason: 'invalid_options', message: expect.stringContaining('decided twice') });
    expect((await client.status(again)).revision).toBe(0);
    // A version no worker registered: the run would wait forever.
    await expect(client.startRun('support', 'x', { runId: 'typo-1', applicationVersion: 'v1.0' })).rejects.toMatchObject({
      reason: 'invalid_options',
      message: expect.stringContaining('No worker has registered application version "v1.0" (registered: v1)'),
    });
    await expect(client.decide(again, [{ callId: 'call_refund_order', approved: true }], { applicationVersion: 'v2' })).rejects.toMatchObject({ reason: 'invalid_options' });
    await expect(client.status('typo-1')).rejects.toMatchObject({ reason: 'unknown_run' });
    await expect(client.startRun('support', 'x', { runId: 'a:b' })).rejects.toMatchObject({ reason: 'invalid_run_id' });
  });

  it('an approval asked after its request expired is refused', async () => {
    const runId = await worker.startRun('support', 'Please refund my order [run:late-1]', { runId: 'late-1' });
    const paused = await client.result(runId);
    const expiresAt = Date.parse(paused.pending[0]!.expiresAt!);
    await expect(client.approve(runId, 'call_refund_order', { decidedAt: new Date(expiresAt + 1) })).rejects.toMatchObject({ reason: 'expired' });
  });

  it('an approval nobody gives in time expires: a durable timer continues the run with the call rejected', async () => {
    const runId = await worker.startRun('support', 'Please refund my order [run:expire-1]', { runId: 'expire-1', approvalTtlMs: 1500 });
    const paused = await client.result(runId);
    expect(paused.state).toBe('paused');
    // result() returns at the pause: wait for the timer to continue the run.
    for (let i = 0; i < 150 && (await client.status(runId)).state !== 'completed'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const expired = await client.status(runId);
    expect(expired).toMatchObject({ state: 'completed', revision: 1 });
    expect(String(expired.finalOutput)).toMatch(/expired/);
    expect(await effects(runId)).not.toContain('tool:refund');
    await expect(client.approve(runId, 'call_refund_order')).rejects.toMatchObject({ reason: 'not_paused' });
  });

  it('follows a run’s events from another client while it runs, across its resume', async () => {
    const runId = await worker.startRun('support', 'Please refund my order [run:follow-1]', { runId: 'follow-1' });
    const seen: string[] = [];
    const following = (async () => {
      for await (const event of client.events(runId, { follow: true })) seen.push(`${event.revision}:${(event.event as { name?: string }).name}`);
    })();
    await client.result(runId);
    await following; // ends at the pause
    expect(seen).toEqual(['0:tool_called', '0:tool_output', '0:tool_called', '0:tool_approval_requested']);
    await client.approve(runId, 'call_refund_order');
    await client.result(runId);
    const all: string[] = [];
    for await (const event of client.events(runId)) all.push(`${event.revision}:${(event.event as { name?: string }).name}`);
    expect(all).toEqual([...seen, '1:tool_output', '1:message_output_created']);
  });

  it('a run id used again after its workflows were deleted never shows the old run’s events; deleteRun removes a run, its resumes, timers and events', async () => {
    const runId = 'reuse-1';
    const names = async () => {
      const seen: string[] = [];
      for await (const event of client.events(runId)) seen.push(`${event.revision}:${(event.event as { name?: string }).name}`);
      return seen;
    };
    await worker.startRun('support', 'Please refund my order [run:reuse-1]', { runId });
    await client.result(runId);
    await client.approve(runId, 'call_refund_order');
    expect(await client.result(runId)).toMatchObject({ state: 'completed', revision: 1 });
    expect(await names()).toEqual(['0:tool_called', '0:tool_output', '0:tool_called', '0:tool_approval_requested', '1:tool_output', '1:message_output_created']);

    // Deleted with DBOS's own client (the events stay behind), then the id is used again.
    const ids = (await client.dbosClient.listWorkflows({ workflow_id_prefix: runId, loadInput: false, loadOutput: false })).map((workflow) => workflow.workflowID);
    expect(ids.sort()).toEqual(['reuse-1', 'reuse-1:expire:0', 'reuse-1:resume:1']);
    await client.dbosClient.cancelWorkflows(ids);
    await client.dbosClient.deleteWorkflows(ids);
    await worker.startRun('support', 'Where is my order? [run:reuse-1]', { runId });
    expect((await names()).every((name) => name.startsWith('0:'))).toBe(true);
    const seen: string[] = [];
    for await (const event of client.events(runId, { follow: true })) seen.push(`${event.revision}:${(event.event as { name?: string }).name}`);
    expect(seen).toEqual(['0:tool_called', '0:tool_output', '0:message_output_created']);
    expect(await names()).toEqual(seen);

    // deleteRun: a paused run with its timer, its resume and its events, all gone.
    await client.deleteRun(runId);
    await worker.startRun('support', 'Please refund my order [run:reuse-2]', { runId: 'reuse-2' });
    await client.result('reuse-2');
    await client.deleteRun('reuse-2');
    for (const id of [runId, 'reuse-2']) {
      await expect(client.status(id)).rejects.toMatchObject({ reason: 'unknown_run' });
      expect(await client.dbosClient.listWorkflows({ workflow_id_prefix: id, loadInput: false, loadOutput: false })).toEqual([]);
      expect((await db.query('SELECT 1 FROM baton_dbos.run_events WHERE run_id = $1', [id])).rows).toEqual([]);
      await expect(client.deleteRun(id)).rejects.toMatchObject({ reason: 'unknown_run', message: expect.stringContaining('nothing to delete') });
    }
  });

  it('a client for a database that cannot be reached says so instead of waiting forever; closing a client ends its followers', async () => {
    const started = Date.now();
    await expect(DurableRunsClient.create({ databaseUrl: 'postgresql://postgres@127.0.0.1:1/nowhere', connectTimeoutMs: 2000 })).rejects.toMatchObject({
      reason: 'unavailable',
      message: expect.stringContaining('cannot reach the database at 127.0.0.1:1/nowhere'),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    const other = await DurableRunsClient.create({ databaseUrl: postgres.urlFor('durable_worker_test') });
    // No worker serves v9 (enqueued with DBOS's own client: ours refuses it): the run stays queued,
    // so only closing the client can end the follower, and result() gives up saying why.
    const runId = await enqueueUnserved(other, 'close-1');
    await expect(other.result(runId, { timeoutMs: 300, pollMs: 50 })).rejects.toMatchObject({
      reason: 'timed_out',
      message: expect.stringContaining('is still queued after 300 ms. It waits on the queue for a worker of version v9'),
    });
    const following = (async () => {
      for await (const _event of other.events(runId, { follow: true })) expect.fail('a queued run has no events');
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await other.status(runId)).state).toBe('queued');
    await other.close();
    await following; // ends, no error
    await client.dbosClient.cancelWorkflow(runId);
  });

  it('launching and serving print no pg deprecation warning (DBOS gets its session timeout as a connection option)', () => {
    expect(warnings.filter((warning) => warning.includes('already executing a query'))).toEqual([]);
  });
});
