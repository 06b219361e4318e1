/**
 * Durable-run latency and throughput on one worker (issue 28): a five-step run (instant model, two
 * tool calls, the answer) started through `DurableRunsClient.startRun` in this process and served by
 * one idle worker process (`durableLatencyWorker.ts`, the package's defaults unless told otherwise),
 * on a throwaway PostgreSQL. Beside it, the same agent in memory (`new Runner()`, no DBOS).
 *
 * - Latency: runs one after another, each timed from `startRun` until `client.result()` returned it
 *   completed (p50, p90).
 * - Throughput: `runs` started at once, timed from the first `startRun` until every run completed.
 * - Where the time goes: for the latency runs, DBOS's own timestamps (the workflow's creation, its
 *   claim by the worker, each step's start and end, its completion) split each run into waiting for
 *   the worker, the steps (the step's own work), between steps (DBOS's step bookkeeping, its commit,
 *   Baton's loop and run-event writes), the end (the workflow's output) and noticing the result. A
 *   bare one-row commit on the same database gives the floor a commit costs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Runner } from '@baton/core';
import { DurableRunsClient } from '@baton/dbos';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { FIVE_STEP_AGENT_NAME, FIVE_STEP_ANSWER, fiveStepAgent } from '../sdks/durableFiveStepAgent.js';
import { enableStatementCounts, perRun as perRunCount, resetStatementCounts, statementCounts, type StatementCount } from './durableStatements.js';

export interface DurableLatencyOptions {
  /** Runs timed one after another (default 200), after `warmupRuns` (default 30). */
  readonly latencyRuns?: number;
  readonly warmupRuns?: number;
  /** Runs started at once for the throughput figure (default 1000). */
  readonly throughputRuns?: number;
  /** The worker's `queue.workerConcurrency` and `queue.pollingIntervalMs` (default: the package's defaults). */
  readonly workerConcurrency?: number;
  readonly pollMs?: number;
  /** Count the statements per run with `pg_stat_statements` (`durableStatements.ts`; the timed figures then carry its small cost). */
  readonly countStatements?: boolean;
}

export const DURABLE_LATENCY_QUICK: DurableLatencyOptions = { latencyRuns: 20, warmupRuns: 3, throughputRuns: 100 };

export interface DurableLatencyResult {
  readonly latencyRuns: number;
  readonly throughputRuns: number;
  readonly workerConcurrency: number | 'default';
  readonly pollMs: number | 'default';
  /** The DBOS steps one run recorded, in order. */
  readonly stepNames: readonly string[];
  readonly inMemory: { readonly p50Ms: number; readonly runsPerSecond: number };
  readonly durable: { readonly p50Ms: number; readonly p90Ms: number; readonly runsPerSecond: number; readonly throughputWallMs: number };
  /** Medians over the latency runs, ms: each phase of a run. */
  readonly phases: {
    readonly enqueue: number;
    readonly waitForWorker: number;
    readonly toFirstStep: number;
    readonly inSteps: number;
    readonly betweenSteps: number;
    readonly toCompletion: number;
    readonly noticed: number;
  };
  /** A bare one-row INSERT commit on the same database, ms (median of 200). */
  readonly commitMs: number;
  /**
   * CPU per run during the throughput runs, ms (user + system, from /proc): the worker process, and
   * PostgreSQL's server processes (the postmaster and its backends). A figure the machine's other load
   * does not inflate: a core gives 1000 / (worker + PostgreSQL) runs/s at best.
   */
  readonly cpuPerRunMs: { readonly worker: number | undefined; readonly postgres: number | undefined };
  /**
   * The floor: DBOS alone (`durableFloorProcess.ts`), the five steps as bare `DBOS.runStep` calls in a
   * workflow started in the same process: no agent loop, queue, client or run events. What DBOS's
   * checkpoints cost on this machine, which no durable run here can go below.
   */
  readonly dbosAlone: {
    readonly p50Ms: number;
    readonly p90Ms: number;
    readonly runsPerSecond: number;
    readonly cpuPerRunMs: { readonly process: number; readonly postgres: number | undefined };
    /** With `countStatements`: top-level statements per run during its throughput runs. */
    readonly statementsPerRun?: number;
  };
  /**
   * With `countStatements`: top-level statements per run sent to the runs' database, during the
   * latency runs (one after another) and the throughput runs (at once), with those on Baton's own
   * tables (the graph record, the run events) apart. Counted by PostgreSQL (`durableStatements.ts`).
   */
  readonly statements?: { readonly sequential: StatementCount; readonly atOnce: StatementCount };
}

const APP_VERSION = 'bench-latency';
/** `@baton/dbos`'s default `queue.workerConcurrency`: DBOS alone gets the same number of runs in flight. */
const DEFAULT_WORKER_CONCURRENCY = 8;
const workerScript = fileURLToPath(new URL('./durableLatencyWorker.ts', import.meta.url));
const floorScript = fileURLToPath(new URL('./durableFloorProcess.ts', import.meta.url));
const tsxLoader = import.meta.resolve('tsx');

/**
 * With `BATON_BENCH_CPU_PROFILE=<dir>`, the worker and the DBOS-alone process write V8 CPU profiles
 * under `<dir>/worker` and `<dir>/dbos-alone` (one per thread: the largest is the main thread's, the
 * others tsx's loader; `--cpu-prof` is refused in NODE_OPTIONS).
 */
function cpuProfileArgs(name: string): string[] {
  const dir = process.env.BATON_BENCH_CPU_PROFILE;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, name)}`] : [];
}

const median = (values: readonly number[]) => quantile(values, 0.5);
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
}

interface WorkerProcess {
  readonly child: ChildProcess;
  output(): string;
}

async function startWorker(databaseUrl: string, options: DurableLatencyOptions): Promise<WorkerProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_NO_WARNINGS: '1', DATABASE_URL: databaseUrl, EXECUTOR_ID: 'latency-1', APP_VERSION };
  if (options.workerConcurrency !== undefined) env.CONCURRENCY = String(options.workerConcurrency);
  if (options.pollMs !== undefined) env.POLL_MS = String(options.pollMs);
  delete env.OPENAI_API_KEY;
  const child = spawn(process.execPath, [...cpuProfileArgs('worker'), '--import', tsxLoader, workerScript], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`durable latency worker not ready in 120 s:\n${output}`)), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.split('\n').some((line) => line.startsWith('{"ready"'))) (clearTimeout(timer), resolve());
    });
    child.once('exit', (code, signal) => (clearTimeout(timer), reject(new Error(`durable latency worker exited (${signal ?? code}) before it was ready:\n${output}`))));
  });
  return { child, output: () => output };
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** CPU time (user + system, ms) of the process `pid` and, with `children`, of its direct children (Linux's /proc; undefined elsewhere). */
function cpuMs(pid: number, children = false): number | undefined {
  const ticks = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpu: Number(fields[11]) + Number(fields[12]) };
  };
  try {
    let total = ticks(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpu;
    if (children) {
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const stat = ticks(readFileSync(`/proc/${entry}/stat`, 'utf8'));
          if (stat.ppid === pid) total += stat.cpu;
        } catch {
          // gone meanwhile
        }
      }
    }
    return total * 10; // clock ticks of 10 ms (USER_HZ 100)
  } catch {
    return undefined;
  }
}

/** One run, start to result, in ms (and when it started, epoch ms, to line up with DBOS's timestamps). */
async function timedRun(client: DurableRunsClient, runId: string): Promise<{ ms: number; startedAt: number; resultAt: number }> {
  const startedAt = Date.now();
  const t0 = performance.now();
  await client.startRun(FIVE_STEP_AGENT_NAME, 'Look up alpha and beta.', { runId, applicationVersion: APP_VERSION });
  const status = await client.result(runId, { timeoutMs: 60_000 });
  const ms = performance.now() - t0;
  if (status.state !== 'completed' || status.finalOutput !== FIVE_STEP_ANSWER) throw new Error(`durable run ${runId}: ${status.state} ${JSON.stringify(status.finalOutput ?? status.error)}`);
  return { ms, startedAt, resultAt: startedAt + ms };
}

async function inMemory(latencyRuns: number, throughputRuns: number): Promise<DurableLatencyResult['inMemory']> {
  const runner = new Runner({ tracingDisabled: true });
  const agent = fiveStepAgent();
  const once = async () => {
    const result = await runner.run(agent, 'Look up alpha and beta.');
    if (result.finalOutput !== FIVE_STEP_ANSWER) throw new Error(`in-memory run: unexpected output ${String(result.finalOutput)}`);
  };
  for (let i = 0; i < 200; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < latencyRuns; i++) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  const t0 = performance.now();
  await Promise.all(Array.from({ length: throughputRuns }, once));
  return { p50Ms: median(times), runsPerSecond: throughputRuns / ((performance.now() - t0) / 1000) };
}

/** The phases of the latency runs, from DBOS's timestamps (epoch ms, this machine's clock). */
async function phasesOf(client: DurableRunsClient, runs: ReadonlyArray<{ runId: string; startedAt: number; resultAt: number }>): Promise<DurableLatencyResult['phases']> {
  const phases = { enqueue: [] as number[], waitForWorker: [] as number[], toFirstStep: [] as number[], inSteps: [] as number[], betweenSteps: [] as number[], toCompletion: [] as number[], noticed: [] as number[] };
  const workflows = await client.dbosClient.listWorkflows({ workflowIDs: runs.map((run) => run.runId), loadInput: false, loadOutput: false });
  for (const run of runs) {
    const workflow = workflows.find((row) => row.workflowID === run.runId);
    const steps = ((await client.dbosClient.listWorkflowSteps(run.runId)) ?? []).map((step) => ({ started: step.startedAtEpochMs ?? Number.NaN, completed: step.completedAtEpochMs ?? Number.NaN }));
    if (!workflow || steps.length === 0) continue;
    const created = workflow.createdAt;
    const dequeued = workflow.dequeuedAt ?? created;
    const completed = workflow.completedAt ?? workflow.updatedAt ?? Number.NaN;
    phases.enqueue.push(created - run.startedAt);
    phases.waitForWorker.push(dequeued - created);
    phases.toFirstStep.push(steps[0]!.started - dequeued);
    phases.inSteps.push(steps.reduce((sum, step) => sum + (step.completed - step.started), 0));
    phases.betweenSteps.push(steps.slice(1).reduce((sum, step, i) => sum + (step.started - steps[i]!.completed), 0));
    phases.toCompletion.push(completed - steps[steps.length - 1]!.completed);
    phases.noticed.push(run.resultAt - completed);
  }
  return {
    enqueue: median(phases.enqueue),
    waitForWorker: median(phases.waitForWorker),
    toFirstStep: median(phases.toFirstStep),
    inSteps: median(phases.inSteps),
    betweenSteps: median(phases.betweenSteps),
    toCompletion: median(phases.toCompletion),
    noticed: median(phases.noticed),
  };
}

/** The part of `pg` this file uses; loaded through @baton/dbos, whose dependency it is (the bench does not depend on it). */
interface SqlPool {
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

function sqlPool(databaseUrl: string): SqlPool {
  const { Pool } = createRequire(fileURLToPath(import.meta.resolve('@baton/dbos')))('pg') as { Pool: new (options: { connectionString: string; max: number }) => SqlPool };
  return new Pool({ connectionString: databaseUrl, max: 1 });
}

/** The postmaster's pid: the parent of a backend of ours. */
async function postmasterPid(databaseUrl: string): Promise<number | undefined> {
  const db = sqlPool(databaseUrl);
  try {
    const { rows } = (await db.query('SELECT pg_backend_pid() AS pid')) as { rows: Array<{ pid: number }> };
    const stat = readFileSync(`/proc/${rows[0]!.pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  } finally {
    await db.end();
  }
}

/** A bare one-row INSERT, its own commit, on the runs' database: the floor of any durable write. */
async function commitFloor(databaseUrl: string): Promise<number> {
  const db = sqlPool(databaseUrl);
  try {
    await db.query('CREATE TABLE IF NOT EXISTS bench_commit_probe (id serial PRIMARY KEY, at timestamptz DEFAULT now())');
    const times: number[] = [];
    for (let i = 0; i < 220; i++) {
      const t0 = performance.now();
      await db.query('INSERT INTO bench_commit_probe DEFAULT VALUES');
      if (i >= 20) times.push(performance.now() - t0);
    }
    return median(times);
  } finally {
    await db.end();
  }
}

/** DBOS alone on this machine (see `DurableLatencyResult.dbosAlone`), on its own database of the same server. */
async function dbosAlone(databaseUrl: string, runs: number, throughputRuns: number, concurrency: number, counted?: { postgres: PostgresServer; database: string }): Promise<DurableLatencyResult['dbosAlone']> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_NO_WARNINGS: '1', DATABASE_URL: databaseUrl, RUNS: String(runs), THROUGHPUT_RUNS: String(throughputRuns), CONCURRENCY: String(concurrency) };
  const child = spawn(process.execPath, [...cpuProfileArgs('dbos-alone'), '--import', tsxLoader, floorScript], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  const lines: string[] = [];
  let waiting: (() => void) | undefined;
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    lines.push(...chunk.toString().split('\n').filter((line) => line.startsWith('{')));
    waiting?.();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = async (key: string): Promise<Record<string, number>> => {
    const deadline = Date.now() + 300_000;
    for (;;) {
      const found = lines.find((text) => text.startsWith(`{"${key}"`));
      if (found) return (JSON.parse(found) as Record<string, Record<string, number>>)[key]!;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`DBOS floor process: no ${key} figures:\n${output}`);
      await Promise.race([new Promise<void>((resolve) => (waiting = resolve)), new Promise((resolve) => setTimeout(resolve, 1000)), exited]);
    }
  };
  try {
    const latency = await line('latency');
    const postmaster = await postmasterPid(databaseUrl);
    if (counted) await resetStatementCounts(counted.postgres);
    const before = postmaster === undefined ? undefined : cpuMs(postmaster, true);
    child.stdin!.write('go\n');
    const throughput = await line('throughput');
    const after = postmaster === undefined ? undefined : cpuMs(postmaster, true);
    await exited;
    // Its shutdown's few statements are in the count too.
    const statements = counted ? (await statementCounts(counted.postgres, counted.database)).total / throughputRuns : undefined;
    return {
      p50Ms: latency.p50Ms!,
      p90Ms: latency.p90Ms!,
      runsPerSecond: throughput.runsPerSecond!,
      cpuPerRunMs: { process: throughput.cpuPerRunMs!, postgres: before === undefined || after === undefined ? undefined : (after - before) / throughputRuns },
      ...(statements === undefined ? {} : { statementsPerRun: statements }),
    };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    process.off('exit', killOnExit);
  }
}

export async function measureDurableLatency(options: DurableLatencyOptions = {}): Promise<DurableLatencyResult> {
  const { latencyRuns = 200, warmupRuns = 30, throughputRuns = 1000 } = options;
  const memory = await inMemory(latencyRuns, throughputRuns);
  let postgres: PostgresServer | undefined;
  let worker: WorkerProcess | undefined;
  let client: DurableRunsClient | undefined;
  try {
    postgres = await startPostgres();
    const counting = options.countStatements === true;
    if (counting) await enableStatementCounts(postgres);
    const server = postgres;
    const perRunOf = async (runs: number): Promise<StatementCount> => {
      return perRunCount(await statementCounts(server, 'bench_durable_latency'), runs);
    };
    const floor = await dbosAlone(
      postgres.urlFor('bench_dbos_floor'),
      latencyRuns,
      throughputRuns,
      options.workerConcurrency ?? DEFAULT_WORKER_CONCURRENCY,
      counting ? { postgres, database: 'bench_dbos_floor' } : undefined,
    );
    const databaseUrl = postgres.urlFor('bench_durable_latency');
    worker = await startWorker(databaseUrl, options);
    client = await DurableRunsClient.create({ databaseUrl });
    for (let i = 0; i < warmupRuns; i++) await timedRun(client, `warm-${i}`);
    if (counting) await resetStatementCounts(postgres);
    const runs: Array<{ runId: string; ms: number; startedAt: number; resultAt: number }> = [];
    for (let i = 0; i < latencyRuns; i++) {
      const runId = `latency-${i}`;
      runs.push({ runId, ...(await timedRun(client, runId)) });
      if (worker.child.exitCode !== null) throw new Error(`durable latency worker exited:\n${worker.output()}`);
    }
    const sequential = counting ? await perRunOf(latencyRuns) : undefined;
    const stepNames = ((await client.dbosClient.listWorkflowSteps('latency-0')) ?? []).map((step) => step.name);
    const phases = await phasesOf(client, runs);

    const postmaster = await postmasterPid(databaseUrl);
    const workerPid = worker.child.pid!;
    if (counting) await resetStatementCounts(postgres);
    const cpuBefore = { worker: cpuMs(workerPid), postgres: postmaster === undefined ? undefined : cpuMs(postmaster, true) };
    const t0 = performance.now();
    const ids = await Promise.all(Array.from({ length: throughputRuns }, (_, i) => client!.startRun(FIVE_STEP_AGENT_NAME, 'Look up alpha and beta.', { runId: `many-${i}`, applicationVersion: APP_VERSION })));
    for (const runId of ids) {
      const status = await client.result(runId, { timeoutMs: 300_000 });
      if (status.state !== 'completed') throw new Error(`durable run ${runId}: ${status.state} ${JSON.stringify(status.error)}`);
    }
    const throughputWallMs = performance.now() - t0;
    const perRun = (before: number | undefined, after: number | undefined) => (before === undefined || after === undefined ? undefined : (after - before) / throughputRuns);
    const cpuPerRunMs = { worker: perRun(cpuBefore.worker, cpuMs(workerPid)), postgres: postmaster === undefined ? undefined : perRun(cpuBefore.postgres, cpuMs(postmaster, true)) };
    const atOnce = counting ? await perRunOf(throughputRuns) : undefined;
    const commitMs = await commitFloor(databaseUrl);
    const times = runs.map((run) => run.ms);
    return {
      latencyRuns,
      throughputRuns,
      workerConcurrency: options.workerConcurrency ?? 'default',
      pollMs: options.pollMs ?? 'default',
      stepNames,
      inMemory: memory,
      durable: { p50Ms: median(times), p90Ms: quantile(times, 0.9), runsPerSecond: throughputRuns / (throughputWallMs / 1000), throughputWallMs },
      phases,
      commitMs,
      cpuPerRunMs,
      dbosAlone: floor,
      ...(sequential && atOnce ? { statements: { sequential, atOnce } } : {}),
    };
  } finally {
    await client?.close().catch(() => undefined);
    if (worker) await stopWorker(worker.child).catch(() => undefined);
    postgres?.stop();
  }
}

export function formatDurableLatency(result: DurableLatencyResult): string {
  const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
  const { durable, inMemory, phases } = result;
  const settings = `workerConcurrency ${result.workerConcurrency}, pollingIntervalMs ${result.pollMs}`;
  return [
    `Durable-run latency and throughput on one worker (issue 28): a five-step run (instant model: ${result.stepNames.join(', ')}) started through ` +
      `DurableRunsClient.startRun and read back with client.result() (defaults), one idle worker process (${settings}), local PostgreSQL (fsync off, as the tests run it); ` +
      `${availableParallelism()} cores shared by PostgreSQL, the worker and this process.`,
    `  Start -> result: p50 ${ms(durable.p50Ms)}, p90 ${ms(durable.p90Ms)} (${result.latencyRuns} runs one after another); in memory p50 ${ms(inMemory.p50Ms)} ` +
      `(${(durable.p50Ms / inMemory.p50Ms).toFixed(0)}x).`,
    `  Throughput: ${durable.runsPerSecond.toFixed(0)} runs/s (${result.throughputRuns} runs started at once, all completed in ${ms(durable.throughputWallMs)}); ` +
      `in memory ${inMemory.runsPerSecond.toFixed(0)} runs/s.`,
    `  Where a run's time goes (medians): enqueue ${ms(phases.enqueue)}, waiting for the worker ${ms(phases.waitForWorker)}, claim to first step ${ms(phases.toFirstStep)}, ` +
      `inside the steps ${ms(phases.inSteps)}, between steps ${ms(phases.betweenSteps)} (DBOS's step records and Baton's loop and event writes), ` +
      `last step to completion ${ms(phases.toCompletion)}, completion to the client's result ${ms(phases.noticed)}. A bare commit here: ${ms(result.commitMs)}.`,
    `  CPU per run (throughput runs): worker process ${result.cpuPerRunMs.worker?.toFixed(2) ?? '?'} ms, PostgreSQL ${result.cpuPerRunMs.postgres?.toFixed(2) ?? '?'} ms ` +
      `(so about ${result.cpuPerRunMs.worker && result.cpuPerRunMs.postgres ? (1000 / (result.cpuPerRunMs.worker + result.cpuPerRunMs.postgres)).toFixed(0) : '?'} runs/s per free core).`,
    `  DBOS alone (the same five steps as bare DBOS.runStep calls in a workflow started in its process: no agent loop, queue, client or run events): ` +
      `p50 ${ms(result.dbosAlone.p50Ms)}, p90 ${ms(result.dbosAlone.p90Ms)}, ${result.dbosAlone.runsPerSecond.toFixed(0)} runs/s (${result.workerConcurrency === 'default' ? DEFAULT_WORKER_CONCURRENCY : result.workerConcurrency} in flight); ` +
      `CPU per run: its process ${result.dbosAlone.cpuPerRunMs.process.toFixed(2)} ms, PostgreSQL ${result.dbosAlone.cpuPerRunMs.postgres?.toFixed(2) ?? '?'} ms. ` +
      `Baton's run over it: ${(durable.p50Ms / result.dbosAlone.p50Ms).toFixed(2)}x the latency, ${(durable.runsPerSecond / result.dbosAlone.runsPerSecond).toFixed(2)}x the throughput.`,
    ...(result.statements
      ? [
          `  Statements per run (pg_stat_statements, top level): ${result.statements.sequential.total.toFixed(1)} one after another ` +
            `(${result.statements.sequential.baton.toFixed(1)} on Baton's tables: graph record and run events; the rest DBOS's, the client's reads among them), ` +
            `${result.statements.atOnce.total.toFixed(1)} at once (${result.statements.atOnce.baton.toFixed(1)} Baton's); ` +
            `DBOS alone ${result.dbosAlone.statementsPerRun?.toFixed(1) ?? '?'} (its throughput runs). The timed figures above carry the counting's cost.`,
          `  Statements of the runs at once, by execution time (per run: calls, rows, PostgreSQL's execution ms; planning, parsing and the round trips not included):`,
          ...(result.statements.atOnce.byStatement ?? [])
            .slice(0, 16)
            .map((kind) => `    ${kind.calls.toFixed(2).padStart(6)} x ${kind.rows.toFixed(2).padStart(6)} rows ${kind.execMs.toFixed(3).padStart(7)} ms  ${kind.query}`),
        ]
      : []),
    `  Targets (issue 28): p50 <= 30 ms ${durable.p50Ms <= 30 ? 'met' : 'missed'}; >= 100 runs/s on one worker ${durable.runsPerSecond >= 100 ? 'met' : 'missed'}` +
      ` (load average ${loadavg()[0]!.toFixed(1)} at the end: other processes share these cores).`,
  ].join('\n');
}
