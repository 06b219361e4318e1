/**
 * A worker process: `tsx src/worker.ts <executor-id>` (or EXECUTOR_ID), with DATABASE_URL set.
 * It serves the durable-run queue with the support agent until SIGTERM or SIGINT. Run as many as you
 * like, each with its own executor id, and give a restarted process the same id it had.
 *
 * Environment: DATABASE_URL (required), EXECUTOR_ID (or the first argument), APP_VERSION (default
 * `support-v1`), THINK_MS (the stand-in model's thinking time, default 0), RECOVERY_MS (how often to
 * look for the runs of dead workers, default 500).
 */
import { DurableWorker } from '@baton/dbos';
import pg from 'pg';
import { supportAgents } from './agents.js';
import { ensureDatabase, ensureSupportTables } from './database.js';

const DEFAULT_APP_VERSION = 'support-v1';

const databaseUrl = process.env.DATABASE_URL;
const executorId = process.argv[2] ?? process.env.EXECUTOR_ID;
if (!databaseUrl || !executorId) {
  console.error('usage: DATABASE_URL=postgresql://... tsx src/worker.ts <executor-id>');
  process.exit(2);
}

await ensureDatabase(databaseUrl);
await ensureSupportTables(databaseUrl);
const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
db.on('error', () => {}); // an idle connection lost in an outage is dropped; queries report their own errors

const worker = await DurableWorker.launch({
  databaseUrl,
  executorId,
  applicationVersion: process.env.APP_VERSION ?? DEFAULT_APP_VERSION,
  agents: supportAgents(db, { executor: executorId, thinkMs: Number(process.env.THINK_MS ?? 0) }),
  queue: { workerConcurrency: 4, pollingIntervalMs: 100 },
  recoveryIntervalMs: Number(process.env.RECOVERY_MS ?? 500),
});
console.log(`ready: ${executorId} (pid ${process.pid}) serves ${worker.options.applicationVersion}`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void worker
    .shutdown()
    .then(() => db.end())
    .finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
