/**
 * The floor of the durable-run latency scenario (issue 28): DBOS alone, without Baton. A process
 * launches DBOS on its own database (DATABASE_URL) and runs a workflow of five bare `DBOS.runStep`
 * calls, each returning a short string at once: the five checkpoints of the five-step run, with no
 * agent loop, no queue, no client, no run events. Started in this process (`DBOS.startWorkflow`,
 * then the handle's `getResult()`): RUNS one after another, timed; then, once a line arrives on
 * stdin (the parent reads PostgreSQL's CPU time first), THROUGHPUT_RUNS with at most CONCURRENCY in
 * flight. Prints one JSON line per phase: `{"latency": {...}}`, then `{"throughput": {...}}`.
 */
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The part of DBOS this file uses, loaded as @baton/dbos has it (its dependency, not the bench's). */
interface Dbos {
  registerWorkflow<A extends unknown[], R>(fn: (...args: A) => Promise<R>, options: { name: string }): (...args: A) => Promise<R>;
  runStep<T>(fn: () => Promise<T>, options: { name: string }): Promise<T>;
  startWorkflow<A extends unknown[], R>(fn: (...args: A) => Promise<R>, options: { workflowID: string }): (...args: A) => Promise<{ getResult(): Promise<R> }>;
  setConfig(config: { name: string; systemDatabaseUrl: string; logLevel: string }): void;
  launch(): Promise<void>;
  shutdown(): Promise<void>;
}
const { DBOS } = createRequire(fileURLToPath(import.meta.resolve('@baton/dbos')))('@dbos-inc/dbos-sdk') as { DBOS: Dbos };

const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`durableFloorProcess: ${name} is not set`);
  return value;
};
const runs = Number(env('RUNS'));
const throughputRuns = Number(env('THROUGHPUT_RUNS'));
const concurrency = Number(env('CONCURRENCY'));

const STEPS = ['t1:model', 'tool:call_1', 't2:model', 'tool:call_2', 't3:model'];
const fiveSteps = DBOS.registerWorkflow(
  async (input: string) => {
    let said = input;
    for (const name of STEPS) said = await DBOS.runStep(async () => `${name} answered`, { name });
    return said;
  },
  { name: 'bench.floor' },
);

DBOS.setConfig({ name: 'bench-floor', systemDatabaseUrl: env('DATABASE_URL'), logLevel: 'warn' });
await DBOS.launch();
let next = 0;
const once = async () => {
  const handle = await DBOS.startWorkflow(fiveSteps, { workflowID: `floor-${next++}` })('go');
  if ((await handle.getResult()) !== 't3:model answered') throw new Error('durableFloorProcess: unexpected result');
};

for (let i = 0; i < 30; i++) await once();
const times: number[] = [];
let cpu = process.cpuUsage();
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  await once();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const latencyCpu = process.cpuUsage(cpu);
const quantile = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))] ?? Number.NaN;
process.stdout.write(`${JSON.stringify({ latency: { p50Ms: quantile(0.5), p90Ms: quantile(0.9), cpuPerRunMs: (latencyCpu.user + latencyCpu.system) / 1000 / runs } })}\n`);

const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
cpu = process.cpuUsage();
const t0 = performance.now();
let left = throughputRuns;
await Promise.all(
  Array.from({ length: Math.min(concurrency, throughputRuns) }, async () => {
    while (left > 0) {
      left--;
      await once();
    }
  }),
);
const wallMs = performance.now() - t0;
const throughputCpu = process.cpuUsage(cpu);
process.stdout.write(`${JSON.stringify({ throughput: { runsPerSecond: throughputRuns / (wallMs / 1000), cpuPerRunMs: (throughputCpu.user + throughputCpu.system) / 1000 / throughputRuns } })}\n`);
lines.close();
await DBOS.shutdown();
process.exit(0);
