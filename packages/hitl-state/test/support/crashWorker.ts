// A worker process of the crash tests: resumes one stored run, printing a marker line on stdout
// when a tool has run (`executed:<label>`) and when a step is committed (`committed:<key>`). At a
// marker that starts with one of `haltAt` it stops there, in place, until the test kills it (-9).
import Database from 'better-sqlite3';
import pg from 'pg';
import { PostgresRunStateStore, SqliteRunStateStore, resumePausedRun, type RunStateStore } from '../../src/index.js';
import { crashAgent, type CrashScenario } from './crashScenario.js';

export interface CrashWorkerJob {
  store: { kind: 'sqlite'; file: string } | { kind: 'postgres'; connectionString: string; tablePrefix: string };
  runId: string;
  scenario: CrashScenario;
  ledger: string;
  haltAt: string[];
  leaseMs: number;
}

const job = JSON.parse(process.env.BATON_CRASH_WORKER!) as CrashWorkerJob;
// Keeps the process alive while it is halted (the lease renewal timer does not).
setInterval(() => undefined, 1 << 30);

async function marker(text: string): Promise<void> {
  process.stdout.write(`${text}\n`);
  if (job.haltAt.some((prefix) => text.startsWith(prefix))) await new Promise(() => undefined);
}

function openStore(): RunStateStore {
  if (job.store.kind === 'sqlite') return new SqliteRunStateStore(new Database(job.store.file));
  return new PostgresRunStateStore(new pg.Pool({ connectionString: job.store.connectionString, max: 2 }), { tablePrefix: job.store.tablePrefix });
}

const inner = openStore();
const store: RunStateStore = new Proxy(inner, {
  get(target, property) {
    if (property === 'commitStep') {
      return async (...args: Parameters<RunStateStore['commitStep']>) => {
        await target.commitStep(...args);
        await marker(`committed:${args[1].key}`);
      };
    }
    const value = Reflect.get(target, property, target);
    return typeof value === 'function' ? value.bind(target) : value;
  },
});

const { agent } = crashAgent(job.scenario, job.ledger, (label) => marker(`executed:${label}`));
const outcome = await resumePausedRun(store, job.runId, agent, { workerId: `worker-${process.pid}`, leaseMs: job.leaseMs });
process.stdout.write(`outcome:${outcome.status}\n`);
process.exit(0);
