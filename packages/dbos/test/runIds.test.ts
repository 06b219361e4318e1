import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { DurableRunError, DurableRunsClient, DurableWorker, RUN_WORKFLOW_NAME } from '../src/index.js';
import { EFFECTS_TABLE, supportAgents } from './fixtures/supportAgents.js';

// Run ids come from outside (an approval UI takes them from a URL): a crafted one must not reach
// another run's workflows, continue a pause a second time, or load every run in the database.
let postgres: PostgresServer;
let db: pg.Pool;
let worker: DurableWorker;
let client: DurableRunsClient;

beforeAll(async () => {
  postgres = await startPostgres();
  const databaseUrl = postgres.urlFor('durable_run_ids_test');
  const admin = new pg.Client({ connectionString: postgres.connectionString });
  await admin.connect();
  await admin.query('CREATE DATABASE durable_run_ids_test');
  await admin.end();
  db = new pg.Pool({ connectionString: databaseUrl });
  await db.query(EFFECTS_TABLE);
  worker = await DurableWorker.launch({
    databaseUrl,
    applicationVersion: 'v1',
    executorId: 'ids-worker',
    agents: supportAgents(db),
    queue: { pollingIntervalMs: 100 },
    recoveryIntervalMs: false,
  });
  client = worker.client;
});

afterAll(async () => {
  await worker?.shutdown();
  await db?.end();
  postgres?.stop();
});

/** Every refund that ran for `runId` or for a workflow named after it (`runId:...`). */
async function refunds(runId: string): Promise<string[]> {
  const { rows } = await db.query<{ detail: string }>("SELECT detail FROM test_effects WHERE kind = 'tool:refund' AND (run_marker = $1 OR starts_with(run_marker, $1 || ':')) ORDER BY id", [runId]);
  return rows.map((row) => row.detail);
}

/** Waits until no workflow of the run (or named after it) is queued or running. */
async function settled(runId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const busy = await client.dbosClient.listWorkflows({ workflow_id_prefix: runId, status: ['ENQUEUED', 'PENDING'], loadInput: false, loadOutput: false });
    if (busy.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`workflows of ${runId} never settled`);
}

describe('run ids from outside', () => {
  it('one approval, one execution: a call approved through the run id cannot be approved again through its resume workflow id', async () => {
    const runId = 'dup-1';
    await worker.startRun('support', 'Please refund my orders [two-refunds] [run:dup-1]', { runId });
    expect((await client.result(runId)).pending.map((call) => call.callId)).toEqual(['call_refund_a', 'call_refund_b']);
    await client.approve(runId, 'call_refund_a', { decidedBy: 'alice' });
    // Revision 1 ran refund a and paused again on refund b: its workflow id is `dup-1:resume:1`.
    expect(await client.result(runId)).toMatchObject({ state: 'paused', revision: 1, pending: [expect.objectContaining({ callId: 'call_refund_b' })] });

    await client.approve(runId, 'call_refund_b', { decidedBy: 'alice' });
    const mallory = await client.approve(`${runId}:resume:1`, 'call_refund_b', { decidedBy: 'mallory' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(await client.result(runId)).toMatchObject({ state: 'completed', revision: 2 });
    await settled(runId);
    expect(await refunds(runId)).toEqual(['call_refund_a', 'call_refund_b']);
    expect(mallory).toBeInstanceOf(DurableRunError);
    expect(mallory).toMatchObject({ reason: 'invalid_run_id', message: expect.stringContaining("':'") });
  });

  it('every client method refuses a malformed run id with invalid_run_id, naming what is wrong', async () => {
    const refused = async (attempt: () => Promise<unknown>) => {
      const error = await attempt().then(
        () => expect.fail('accepted'),
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(DurableRunError);
      return error as DurableRunError;
    };
    const drain = async (runId: string, follow: boolean) => {
      for await (const _event of client.events(runId, { follow })) expect.fail('no events for a malformed id');
    };
    for (const bad of ['', '%', '_', 'r1:resume:1', 'r1:expire:0', ' r1', 'r1\n', 'r1\u001b[2J', 'x'.repeat(201), 'naïve', 'a/b', 'a%b']) {
      for (const attempt of [
        () => client.status(bad),
        () => client.result(bad, { timeoutMs: 100 }),
        () => client.approve(bad, 'call_x'),
        () => client.reject(bad, 'call_x'),
        () => client.decide(bad, [{ callId: 'call_x', approved: true }]),
        () => drain(bad, false),
        () => drain(bad, true),
        () => client.startRun('support', 'hi', { runId: bad }),
      ]) {
        expect(await refused(attempt), JSON.stringify(bad)).toMatchObject({ reason: 'invalid_run_id' });
      }
    }
    expect((await refused(() => client.status(''))).message).toMatch(/empty/);
    expect((await refused(() => client.status('r1:resume:1'))).message).toMatch(/':'.*separator/);
    expect((await refused(() => client.status('x'.repeat(5000)))).message).toMatch(/5000 characters.*at most 200/);
    const escape = await refused(() => client.status('r1\u001b[2J'));
    expect(escape.message).not.toContain('\u001b');
    expect(escape.message).toMatch(/character/);
    expect((await refused(() => client.status(42 as unknown as string))).message).toMatch(/string/);
  });

  it('a run is looked up by its exact id: no other run is loaded, a prefix names no run', async () => {
    await worker.startRun('support', 'Where is my order? [run:order_10]', { runId: 'order_10' });
    await worker.startRun('support', 'Where is my order? [run:orderX1]', { runId: 'orderX1' });
    await client.result('order_10');
    await client.result('orderX1');
    await expect(client.status('order')).rejects.toMatchObject({ reason: 'unknown_run' });
    await expect(client.status('order_1')).rejects.toMatchObject({ reason: 'unknown_run' });

    // What DBOS hands back while the client answers for `order_1`: nothing of `order_10` or `orderX1`.
    const dbos = client.dbosClient;
    const loaded: string[] = [];
    const list = dbos.listWorkflows.bind(dbos);
    const get = dbos.getWorkflow.bind(dbos);
    dbos.listWorkflows = async (input) => {
      const found = await list(input);
      if (input.loadInput !== false || input.loadOutput !== false) loaded.push(...found.map((workflow) => workflow.workflowID));
      return found;
    };
    dbos.getWorkflow = async (id) => {
      const found = await get(id);
      if (found) loaded.push(found.workflowID);
      return found;
    };
    try {
      await expect(client.status('order_1')).rejects.toMatchObject({ reason: 'unknown_run' });
      expect(loaded).toEqual([]);
      expect((await client.status('orderX1')).state).toBe('completed');
      expect(loaded).toEqual(['orderX1']);
    } finally {
      dbos.listWorkflows = list;
      dbos.getWorkflow = get;
    }
  });

  it('the workflow checks its run id too: a run workflow enqueued under a crafted id fails without running a step', async () => {
    const enqueue = (workflowID: string, runId: string, revision: number) =>
      client.dbosClient.enqueue(
        { queueName: 'baton-runs', workflowName: RUN_WORKFLOW_NAME, workflowID, appVersion: 'v1' },
        { runId, agent: 'support', revision, start: { kind: 'input', input: `Please refund my order [run:${runId}]` } },
      );
    await enqueue('crafted-1', 'crafted-1:resume:1', 0);
    await enqueue('crafted-2:resume:7', 'crafted-2', 0);
    for (const [id, why] of [
      ['crafted-1', /':'/],
      ['crafted-2:resume:7', /crafted-2:resume:7.*revision 0 of run crafted-2 is crafted-2/],
    ] as const) {
      const output = (await client.dbosClient.retrieveWorkflow(id).getResult()) as { status: string; error: { name: string; message: string } };
      expect(output).toMatchObject({ status: 'failed', error: { name: 'DurableRunError', message: expect.stringMatching(why) } });
    }
    const { rows } = await db.query("SELECT 1 FROM test_effects WHERE run_marker LIKE 'crafted-%'");
    expect(rows).toEqual([]);
  });
});
