/**
 * A worker process of the durable-runs scenario: `node --import tsx durableWorkerProcess.ts`,
 * configured by environment (DATABASE_URL, EXECUTOR_ID, APP_VERSION, CONCURRENCY, POLL_MS). Prints
 * one JSON line `{"ready":true,"launchMs":...}` once it serves the queue. SIGTERM shuts it down
 * cleanly; it also exits when its stdin closes, so a parent that dies leaves no worker behind.
 */
import { DurableWorker } from '@baton/dbos';
import { DURABLE_AGENT_NAME, durableBenchAgent } from '../sdks/durableAgent.js';

const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`durableWorkerProcess: ${name} is not set`);
  return value;
};

const t0 = performance.now();
const worker = await DurableWorker.launch({
  databaseUrl: env('DATABASE_URL'),
  applicationVersion: env('APP_VERSION'),
  executorId: env('EXECUTOR_ID'),
  agents: { [DURABLE_AGENT_NAME]: durableBenchAgent() },
  runner: { tracingDisabled: true },
  queue: { workerConcurrency: Number(env('CONCURRENCY')), pollingIntervalMs: Number(env('POLL_MS')) },
  recoveryIntervalMs: false,
});
const launchMs = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ready: true, launchMs })}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  const force = setTimeout(() => process.exit(1), 5_000);
  force.unref();
  void worker.shutdown().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.stdin.on('close', stop);
process.stdin.on('end', stop);
process.stdin.resume();
