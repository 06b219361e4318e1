/**
 * The worker process of the durable-run latency scenario: `node --import tsx durableLatencyWorker.ts`,
 * configured by environment (DATABASE_URL, EXECUTOR_ID, APP_VERSION; CONCURRENCY and POLL_MS only
 * when set, otherwise the package's defaults). Prints one JSON line `{"ready":true}` once it serves
 * the queue. SIGTERM shuts it down cleanly; it also exits when its stdin closes.
 */
import { DurableWorker } from '@baton/dbos';
import { FIVE_STEP_AGENT_NAME, fiveStepAgent } from '../sdks/durableFiveStepAgent.js';

const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`durableLatencyWorker: ${name} is not set`);
  return value;
};
const optional = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const concurrency = optional('CONCURRENCY');
const pollMs = optional('POLL_MS');

const worker = await DurableWorker.launch({
  databaseUrl: env('DATABASE_URL'),
  applicationVersion: env('APP_VERSION'),
  executorId: env('EXECUTOR_ID'),
  agents: { [FIVE_STEP_AGENT_NAME]: fiveStepAgent() },
  runner: { tracingDisabled: true },
  queue: { ...(concurrency === undefined ? {} : { workerConcurrency: concurrency }), ...(pollMs === undefined ? {} : { pollingIntervalMs: pollMs }) },
  recoveryIntervalMs: false,
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

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
