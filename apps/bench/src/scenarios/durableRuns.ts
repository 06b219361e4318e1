/**
 * Durable runs on `@baton/dbos` (issue 15): short runs (an instant model that calls one tool, then
 * answers) enqueued from this process through `DurableRunsClient.startRun` and served by 1, 2 and 4
 * worker processes (`DurableWorker`) on one throwaway PostgreSQL, a fresh database per worker count.
 * Wall time from the first enqueue until every run completed gives runs/s; against the same agent
 * run in memory (`new Runner()`, no DBOS) it gives DBOS's overhead per step.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Runner } from '@baton/core';
import { DurableRunsClient } from '@baton/dbos';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { DURABLE_AGENT_NAME, DURABLE_ANSWER, durableBenchAgent } from '../sdks/durableAgent.js';

export interface DurableRunsOptions {
  /** Timed runs per worker count (default 500). */
  readonly runs?: number;
  readonly workerCounts?: readonly number[];
  /** `queue.workerConcurrency` of each worker, and the in-memory baseline's concurrency (default 100). */
  readonly concurrency?: number;
  /** `queue.pollingIntervalMs` of each worker (default 20). */
  readonly pollMs?: number;
  /** Untimed runs per worker before the timed ones (default 20). */
  readonly warmupRunsPerWorker?: number;
}

/** A smoke run for `--quick`: the figures mean nothing. */
export const DURABLE_QUICK: DurableRunsOptions = { runs: 40, workerCounts: [1, 2], warmupRunsPerWorker: 2 };

export interface DurableRunsRow {
  readonly workers: number;
  readonly runs: number;
  /** From the first enqueue until every run completed. */
  readonly wallMs: number;
  readonly runsPerSecond: number;
  /** Until the last `startRun` returned (inside `wallMs`). */
  readonly enqueueMs: number;
  /** Timed runs completed by each worker (executor id → runs). */
  readonly perWorker: Readonly<Record<string, number>>;
  /** `DurableWorker.launch()` of each worker, in ms (launched together, on a fresh database). */
  readonly launchMs: readonly number[];
  /** Spawn of the process until it served the queue (loading Node, tsx, the SDKs, then launch), in ms. */
  readonly readyMs: readonly number[];
}

export interface DurableRunsResult {
  readonly runs: number;
  readonly concurrency: number;
  readonly pollMs: number;
  readonly warmupRunsPerWorker: number;
  /** The same agent and model, `new Runner().run()` in this process, `concurrency` runs at a time. */
  readonly inMemory: { readonly wallMs: number; readonly msPerRun: number };
  /** The DBOS steps one completed run recorded (`listWorkflowSteps`), by name. */
  readonly stepNames: readonly string[];
  /** (durable ms per run on 1 worker − in-memory ms per run) / steps per run. */
  readonly overheadPerStepMs: number | undefined;
  /** One worker's `DurableWorker.launch()`: on a fresh database (creates and migrates it), then again on the migrated one. */
  readonly launch: { readonly freshDatabaseMs: number; readonly migratedDatabaseMs: number; readonly readyMs: number };
  readonly rows: readonly DurableRunsRow[];
}

const APP_VERSION = 'bench';
const workerScript = fileURLToPath(new URL('./durableWorkerProcess.ts', import.meta.url));
const tsxLoader = import.meta.resolve('tsx');
const TERMINAL = new Set(['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED']);

interface Worker {
  readonly executorId: string;
  readonly child: ChildProcess;
  readonly launchMs: number;
  readonly readyMs: number;
  output(): string;
}

/** Every worker process this module started and that has not exited yet. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

async function startWorker(databaseUrl: string, executorId: string, concurrency: number, pollMs: number): Promise<Worker> {
  installExitHook();
  const t0 = performance.now();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_NO_WARNINGS: '1', DATABASE_URL: databaseUrl, EXECUTOR_ID: executorId, APP_VERSION, CONCURRENCY: String(concurrency), POLL_MS: String(pollMs) };
  delete env.OPENAI_API_KEY;
  // Node itself with tsx's loader (not the tsx CLI, whose own child a kill of the CLI would leave running).
  const child = spawn(process.execPath, ['--import', tsxLoader, workerScript], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const launchMs = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`durable worker ${executorId} not ready in 120 s:\n${output}`)), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // DBOS logs to stdout too: the ready line is the one JSON line.
      const ready = output.split('\n').find((line) => line.startsWith('{"ready"'));
      if (ready && output.includes(`${ready}\n`)) {
        clearTimeout(timer);
        resolve((JSON.parse(ready) as { launchMs: number }).launchMs);
      }
    });
    child.once('exit', (code, signal) => (clearTimeout(timer), reject(new Error(`durable worker ${executorId} exited (${signal ?? code}) before it was ready:\n${output}`))));
  });
  return { executorId, child, launchMs, readyMs: performance.now() - t0, output: () => output };
}

/** SIGTERM (a clean shutdown), SIGKILL after 10 s; resolves once the process is gone. */
async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function stopAll(workers: readonly Worker[]): Promise<void> {
  await Promise.all(workers.map((worker) => stopWorker(worker.child)));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until no workflow in the database is queued or running (cheap: at most one row per poll). */
async function drained(client: DurableRunsClient, workers: readonly Worker[], timeoutMs = 300_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const open = await client.dbosClient.listWorkflows({ status: ['ENQUEUED', 'PENDING', 'DELAYED'], limit: 1, loadInput: false, loadOutput: false });
    if (open.length === 0) return;
    const dead = workers.find((worker) => worker.child.exitCode !== null || worker.child.signalCode !== null);
    if (dead) throw new Error(`durable worker ${dead.executorId} exited mid-run:\n${dead.output()}`);
    if (performance.now() > deadline) throw new Error(`durable runs: still running after ${timeoutMs} ms`);
    await sleep(10);
  }
}

async function enqueue(client: DurableRunsClient, prefix: string, count: number): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => client.startRun(DURABLE_AGENT_NAME, 'Look up baton.', { runId: `${prefix}${i}`, applicationVersion: APP_VERSION })));
}

/** Every run of `prefix` completed with the expected answer; returns runs per executor. */
async function checkCompleted(client: DurableRunsClient, prefix: string, count: number): Promise<Record<string, number>> {
  const workflows = await client.dbosClient.listWorkflows({ workflow_id_prefix: prefix, loadInput: false, loadOutput: true });
  const perWorker: Record<string, number> = {};
  for (const workflow of workflows) {
    const output = workflow.output as { status?: string; finalOutput?: unknown } | undefined;
    if (!TERMINAL.has(workflow.status) || workflow.status !== 'SUCCESS' || output?.status !== 'completed' || output.finalOutput !== DURABLE_ANSWER) {
      throw new Error(`durable run ${workflow.workflowID}: ${workflow.status} ${JSON.stringify(output ?? workflow.error)}`);
    }
    const by = workflow.executorId ?? '?';
    perWorker[by] = (perWorker[by] ?? 0) + 1;
  }
  if (workflows.length !== count) throw new Error(`durable runs: ${workflows.length} runs of ${prefix}* in the database, expected ${count}`);
  return perWorker;
}

/** The same agent in memory: `concurrency` runs at a time, `runs` in all; ms of wall time. */
async function inMemoryWall(runs: number, concurrency: number): Promise<number> {
  const runner = new Runner({ tracingDisabled: true });
  const agent = durableBenchAgent();
  let next = 0;
  const lane = async () => {
    while (next < runs) {
      next++;
      const result = await runner.run(agent, 'Look up baton.');
      if (result.finalOutput !== DURABLE_ANSWER) throw new Error(`in-memory run: unexpected output ${String(result.finalOutput)}`);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, runs) }, lane));
  return performance.now() - t0;
}

export async function measureDurableRuns(options: DurableRunsOptions = {}): Promise<DurableRunsResult> {
  const { runs = 500, workerCounts = [1, 2, 4], concurrency = 100, pollMs = 20, warmupRunsPerWorker = 20 } = options;

  // The baseline first, before any worker or PostgreSQL competes for the CPU: warm-up, then the median of 3.
  await inMemoryWall(Math.max(100, runs), concurrency);
  const walls = [await inMemoryWall(runs, concurrency), await inMemoryWall(runs, concurrency), await inMemoryWall(runs, concurrency)].sort((a, b) => a - b);
  const inMemory = { wallMs: walls[1]!, msPerRun: walls[1]! / runs };

  let postgres: PostgresServer | undefined;
  const started: Worker[] = [];
  let client: DurableRunsClient | undefined;
  try {
    postgres = await startPostgres();
    const rows: DurableRunsRow[] = [];
    let launch: DurableRunsResult['launch'] | undefined;
    let stepNames: string[] = [];
    for (const n of workerCounts) {
      const databaseUrl = postgres.urlFor(`bench_durable_${n}w`);
      const workers = await Promise.all(Array.from({ length: n }, (_, i) => startWorker(databaseUrl, `bench-${n}w-${i}`, concurrency, pollMs)));
      started.push(...workers);
      const launchMs = workers.map((w) => w.launchMs);
      const readyMs = workers.map((w) => w.readyMs);
      if (launch === undefined && n === 1) {
        // The same executor again on the now-migrated database: a restart's launch.
        const fresh = workers[0]!;
        await stopWorker(fresh.child);
        const again = await startWorker(databaseUrl, fresh.executorId, concurrency, pollMs);
        started.push(again);
        workers[0] = again;
        launch = { freshDatabaseMs: fresh.launchMs, migratedDatabaseMs: again.launchMs, readyMs: again.readyMs };
      }
      client = await DurableRunsClient.create({ databaseUrl });
      const warmups = warmupRunsPerWorker * n;
      if (warmups > 0) {
        await enqueue(client, 'warm-', warmups);
        await drained(client, workers);
        await checkCompleted(client, 'warm-', warmups);
      }
      const t0 = performance.now();
      await enqueue(client, 'run-', runs);
      const enqueueMs = performance.now() - t0;
      await drained(client, workers);
      const wallMs = performance.now() - t0;
      const perWorker = await checkCompleted(client, 'run-', runs);
      if (stepNames.length === 0) stepNames = ((await client.dbosClient.listWorkflowSteps('run-0')) ?? []).map((step) => step.name);
      rows.push({ workers: n, runs, wallMs, runsPerSecond: runs / (wallMs / 1000), enqueueMs, perWorker, launchMs, readyMs });
      await client.close();
      client = undefined;
      await stopAll(workers);
    }
    const one = rows.find((row) => row.workers === 1);
    const overheadPerStepMs = one && stepNames.length > 0 ? (one.wallMs / one.runs - inMemory.msPerRun) / stepNames.length : undefined;
    return {
      runs,
      concurrency,
      pollMs,
      warmupRunsPerWorker,
      inMemory,
      stepNames,
      overheadPerStepMs,
      launch: launch ?? { freshDatabaseMs: Number.NaN, migratedDatabaseMs: Number.NaN, readyMs: Number.NaN },
      rows,
    };
  } finally {
    await client?.close().catch(() => undefined);
    await stopAll(started).catch(() => undefined);
    for (const child of live) child.kill('SIGKILL');
    postgres?.stop();
  }
}

export function formatDurableRuns(result: DurableRunsResult): string {
  const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
  const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  const header = `  ${'Workers'.padEnd(8)} ${'Runs/s'.padStart(7)} ${'Wall'.padStart(9)} ${'ms/run'.padStart(7)} ${'Enqueue'.padStart(9)}  Runs per worker`;
  const lines = result.rows.map(
    (row) =>
      `  ${String(row.workers).padEnd(8)} ${row.runsPerSecond.toFixed(0).padStart(7)} ${ms(row.wallMs).padStart(9)} ${(row.wallMs / row.runs).toFixed(2).padStart(7)} ${ms(row.enqueueMs).padStart(9)}  ${Object.values(row.perWorker).join(' / ')}`,
  );
  const steps = result.stepNames.length;
  const one = result.rows.find((row) => row.workers === 1);
  return [
    `Durable runs on @baton/dbos (issue 15): ${result.runs} runs (instant model, one tool call, then the answer) enqueued through DurableRunsClient.startRun, ` +
      `served by worker processes on one local PostgreSQL (a fresh database per row; workerConcurrency ${result.concurrency}, polling every ${result.pollMs} ms; ` +
      `after ${result.warmupRunsPerWorker} warm-up runs per worker). Wall time from the first enqueue until every run completed. ` +
      `This machine has ${availableParallelism()} cores: beyond that, more workers (plus PostgreSQL) measure contention, not scale.`,
    header,
    ...lines,
    `  In memory (new Runner(), no DBOS, same agent, ${result.concurrency} at a time): ${result.inMemory.msPerRun.toFixed(3)} ms/run. ` +
      (one && result.overheadPerStepMs !== undefined
        ? `Durable on 1 worker: ${(one.wallMs / one.runs).toFixed(2)} ms/run, so ${result.overheadPerStepMs.toFixed(2)} ms per step ` +
          `(${steps} DBOS steps per run, counted by listWorkflowSteps: ${result.stepNames.join(', ')}; the rest of the workflow — enqueue, dequeue, status, output, run events — is charged to them too).`
        : ''),
    `  DurableWorker.launch(): ${ms(result.launch.freshDatabaseMs)} on a fresh database (creates and migrates it), ${ms(result.launch.migratedDatabaseMs)} on a migrated one; ` +
      `process spawn to serving ${ms(result.launch.readyMs)} (Node + tsx + SDKs). Launched together: ` +
      result.rows.map((row) => `${row.workers} worker(s) median ${ms(median(row.launchMs))}`).join(', ') +
      '.',
  ].join('\n');
}
