/**
 * The whole example as one function that prints through `log` (the console when run, a collector in
 * tests): a throwaway PostgreSQL, two worker processes, a few runs, a worker killed with SIGKILL in
 * the middle of a run and the other finishing it, then the approval CLI approving a refund from a
 * process of its own, and everything shut down.
 */
import { DurableRunsClient, type DurableRunStatus, type RunEvent } from '@baton/dbos';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import pg from 'pg';
import { ensureDatabase, ensureSupportTables, modelCallCounts, refundsIssued, toolExecutionCounts, type ModelCallCount, type RefundRow, type ToolExecutionCount } from './database.js';
import { isAlive, killCliRuns, runApprovalCli, startWorkerProcess, type CliRun, type WorkerProcess } from './processes.js';

/** Where the example prints. */
export type Log = (line: string) => void;

export const APP_VERSION = 'support-v1';

export interface DurableSupportOptions {
  /** How long the stand-in model thinks once it has a tool result: the window in which a worker is killed (default 1500 ms). */
  readonly thinkMs?: number;
}

export interface DurableSupportOutcome {
  readonly question: DurableRunStatus;
  /** The run whose worker was killed. */
  readonly crashed: { readonly runId: string; readonly killedExecutor: string; readonly killedPid: number; readonly status: DurableRunStatus; readonly events: string[] };
  readonly refund: { readonly runId: string; readonly paused: DurableRunStatus; readonly status: DurableRunStatus };
  readonly cli: { readonly pending: CliRun; readonly approve: CliRun; readonly approveAgain: CliRun };
  readonly toolExecutions: ToolExecutionCount[];
  readonly modelCalls: ModelCallCount[];
  readonly refunds: RefundRow[];
  /** The worker processes' pids, for checking none is left. */
  readonly workerPids: number[];
}

let cleanup: (() => Promise<void>) | undefined;
let interrupted = false;

/** Stops whatever a running example started (for Ctrl-C); the example then ends with an error. */
export async function stopExample(): Promise<void> {
  interrupted = true;
  await cleanup?.();
}

/** Whether `stopExample` was called (the example's error is then only a consequence of it). */
export function wasStopped(): boolean {
  return interrupted;
}

export async function durableSupportExample(log: Log, options: DurableSupportOptions = {}): Promise<DurableSupportOutcome> {
  const thinkMs = options.thinkMs ?? 1500;
  const step = (text: string) => log(`\n▶ ${text}`);
  const workers = new Map<string, WorkerProcess>();
  let postgres: PostgresServer | undefined;
  let client: DurableRunsClient | undefined;
  let db: pg.Pool | undefined;
  let stopping: Promise<void> | undefined;
  // Once, however often it is called (the end of the example, an error, Ctrl-C): all callers wait for it.
  cleanup = () =>
    (stopping ??= (async () => {
      killCliRuns();
      await Promise.all([...workers.values()].map((worker) => worker.stop()));
      await client?.close().catch(() => undefined);
      await db?.end().catch(() => undefined);
      postgres?.stop();
    })());

  try {
    step('Starting a throwaway PostgreSQL: the durable runs and the support desk tables live in it.');
    postgres = await startPostgres();
    const databaseUrl = postgres.urlFor('durable_support');
    await ensureDatabase(databaseUrl);
    await ensureSupportTables(databaseUrl);
    db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    db.on('error', () => {});
    log(`  ${databaseUrl}`);

    step('Starting two worker processes together on the fresh database. Notice: both launch; DBOS\'s schema migration ran once, under a lock.');
    const env = { DATABASE_URL: databaseUrl, APP_VERSION, THINK_MS: String(thinkMs), RECOVERY_MS: '500' };
    const started = await Promise.all(['worker-a', 'worker-b'].map((id) => startWorkerProcess(id, env, (line) => log(`  [${id}] ${line}`))));
    for (const worker of started) workers.set(worker.executorId, worker);
    client = await DurableRunsClient.create({ databaseUrl });

    step('Two runs go on the queue: a plain question, and a refund request. Notice: the refund pauses for approval and holds no worker while it waits.');
    const questionId = await client.startRun('support', 'Where is my order 1001?', { runId: 'question-1001', applicationVersion: APP_VERSION });
    const refundId = await client.startRun('support', 'Order 1003 was charged twice, please refund the duplicate.', { runId: 'refund-1003', applicationVersion: APP_VERSION });
    const [question, paused] = await Promise.all([client.result(questionId, { timeoutMs: 60_000 }), client.result(refundId, { timeoutMs: 60_000 })]);
    log(`  ${questionId}: ${question.state} on ${question.executorId}: ${JSON.stringify(question.finalOutput)}`);
    log(`  ${refundId}: ${paused.state} (ran on ${paused.executorId}), waiting for ${paused.pending.map((call) => `${call.toolName}(${call.arguments ?? ''})`).join(', ')}`);

    step(`A third run, followed from this process (client.events(runId, { follow: true })). Notice: when its tool output is in, the model thinks for ${thinkMs} ms, and we kill the worker running it with SIGKILL right then.`);
    const crashedId = await client.startRun('support', 'Hi, where is my order 1002?', { runId: 'question-1002', applicationVersion: APP_VERSION });
    const events: string[] = [];
    let killed: WorkerProcess | undefined;
    for await (const event of client.events(crashedId, { follow: true })) {
      const { name, text } = describe(event);
      events.push(name);
      log(`  event ${event.revision}.${event.seq}: ${name} ${text}`);
      if (name === 'tool_output' && !killed) {
        await committed(client, crashedId, 'tool:call_lookup_order_1002');
        const owner = (await client.status(crashedId)).executorId;
        killed = owner === undefined ? undefined : workers.get(owner);
        if (!killed) throw new Error(`run ${crashedId} is held by ${owner ?? 'nobody'}, not one of our workers`);
        await killed.kill();
        log(`  ✂ killed ${killed.executorId} (pid ${killed.pid}) with SIGKILL: its lookup_order step was committed, its model call was in flight.`);
        log(`    The other worker sees ${killed.executorId}'s lock free (its process is gone), puts the run back on the queue, and replays it.`);
      }
    }
    if (!killed) throw new Error(`run ${crashedId} ended before a worker could be killed`);
    const crashed = await client.result(crashedId, { timeoutMs: 60_000 });
    log(`  ${crashedId}: ${crashed.state} on ${crashed.executorId}: ${JSON.stringify(crashed.finalOutput)}`);

    step('Counts from the database, written by the tools and the model inside the workers. Notice: every tool call ran once, even the one of the crashed run; the model call in flight at the crash was made again (safe to repeat).');
    const toolsNow = await toolExecutionCounts(db);
    for (const row of toolsNow) log(`  ${row.runId.padEnd(14)} ${row.tool.padEnd(13)} ${row.callId.padEnd(28)} ran ${row.executions}x on ${row.executors.join(', ')}`);
    for (const row of await modelCallCounts(db)) log(`  model call, order ${row.orderId}, turn ${row.turn}: ${row.calls}x on ${row.executors.join(', ')}`);

    step(`The approval CLI, a process of its own with no agents (DurableRunsClient only): list what ${refundId} waits for, then approve it.`);
    const cliEnv = { DATABASE_URL: databaseUrl };
    const cliLog = (line: string) => log(`  [approve.ts] ${line}`);
    log(`  $ approve.ts pending ${refundId}`);
    const pendingRun = await runApprovalCli(['pending', refundId], cliEnv, cliLog);
    log(`  $ approve.ts approve ${refundId} --by ops@teashop.example --reason "duplicate charge confirmed"`);
    const approveRun = await runApprovalCli(['approve', refundId, '--by', 'ops@teashop.example', '--reason', 'duplicate charge confirmed'], cliEnv, cliLog);
    const refund = await client.result(refundId, { timeoutMs: 60_000 });
    log(`  ${refundId}: ${refund.state} on ${refund.executorId} (revision ${refund.revision}): ${JSON.stringify(refund.finalOutput)}`);
    log('  Notice: a second approval of the same pause is refused, the run has moved on:');
    log(`  $ approve.ts approve ${refundId} --by someone-else`);
    const approveAgain = await runApprovalCli(['approve', refundId, '--by', 'someone-else'], cliEnv, cliLog);

    step('The refund in the support desk table: one row, keyed by run id and call id.');
    const refunds = await refundsIssued(db);
    for (const row of refunds) log(`  ${row.runId} ${row.callId}: $${row.amountUsd} for order ${row.orderId}, by ${row.executor}`);
    const toolExecutions = await toolExecutionCounts(db);
    const refundRuns = toolExecutions.filter((row) => row.tool === 'refund_order');
    log(`  refund_order ran ${refundRuns.map((row) => `${row.executions}x`).join(', ')} in all.`);
    const modelCalls = await modelCallCounts(db);

    step('Shutting down: the live worker gets SIGTERM and stops cleanly; PostgreSQL stops. Notice: no worker process is left.');
    const workerPids = [...workers.values()].map((worker) => worker.pid);
    await cleanup();
    const left = workerPids.filter(isAlive);
    log(`  worker processes still alive: ${left.length === 0 ? 'none' : left.join(', ')}`);

    return {
      question,
      crashed: { runId: crashedId, killedExecutor: killed.executorId, killedPid: killed.pid, status: crashed, events },
      refund: { runId: refundId, paused, status: refund },
      cli: { pending: pendingRun, approve: approveRun, approveAgain },
      toolExecutions,
      modelCalls,
      refunds,
      workerPids,
    };
  } finally {
    await cleanup();
    cleanup = undefined;
  }
}

/** Waits until the run's step named `name` has committed its output. */
async function committed(client: DurableRunsClient, workflowId: string, name: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const steps = (await client.dbosClient.listWorkflowSteps(workflowId)) ?? [];
    if (steps.some((step) => step.name === name && step.completedAtEpochMs !== undefined && step.error === null)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`step ${name} of ${workflowId} never committed`);
}

/** A run event in a line: its name and what it carries. */
function describe(event: RunEvent): { name: string; text: string } {
  const data = event.event as { type?: string; name?: string; agent?: string; item?: { rawItem?: Record<string, unknown>; output?: unknown } };
  if (data.type === 'agent_updated_stream_event') return { name: 'agent_updated', text: String(data.agent) };
  const raw = data.item?.rawItem ?? {};
  const name = data.name ?? String(data.type);
  if (name === 'tool_called' || name === 'tool_approval_requested') return { name, text: `${String(raw.name)}(${String(raw.arguments)})` };
  if (name === 'tool_output') return { name, text: typeof data.item?.output === 'string' ? data.item.output : JSON.stringify(data.item?.output) };
  if (name === 'message_output_created') {
    const content = (raw.content as Array<{ text?: string }> | undefined) ?? [];
    return { name, text: JSON.stringify(content.map((part) => part.text ?? '').join('')) };
  }
  return { name, text: '' };
}
