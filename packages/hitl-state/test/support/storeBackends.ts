import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { MemoryRunStateStore, PostgresRunStateStore, SqliteRunStateStore, type RunStateStore } from '../../src/index.js';

/** A run as the previous version left it: claimed by a worker that died, with its committed tool outputs. */
export interface PreviousVersionRun {
  runId: string;
  state: string;
  outputs: Array<{ callId: string; item: string }>;
}

export interface StoreBackend {
  name: string;
  /** A current store on fresh tables. */
  open(): Promise<{ store: RunStateStore; close(): Promise<void> }>;
  /** Tables created and filled by the previous version (no step journal), then opened (`init()`) by this one. */
  upgrade(run: PreviousVersionRun): Promise<{ store: RunStateStore; close(): Promise<void> }>;
}

// The previous version's schema, as it created it.
const previousDdl = (prefix: string, bigint: string) => [
  `CREATE TABLE ${prefix}paused_runs (run_id TEXT PRIMARY KEY, status TEXT NOT NULL CHECK (status IN ('paused', 'running', 'completed')),
   state TEXT NOT NULL, schema_version TEXT NOT NULL, revision INTEGER NOT NULL, claim_token TEXT, claimed_by TEXT, lease_expires_at ${bigint}, updated_at ${bigint} NOT NULL)`,
  `CREATE TABLE ${prefix}committed_tool_outputs (run_id TEXT NOT NULL, call_id TEXT NOT NULL, item TEXT NOT NULL, committed_at ${bigint} NOT NULL, PRIMARY KEY (run_id, call_id))`,
];
const lapsed = () => Date.now() - 60_000;

export function storeBackends(connectionString: () => string): StoreBackend[] {
  let schema = 0;
  const sqliteFile = () => join(mkdtempSync(join(tmpdir(), 'baton-journal-')), 'runs.db');
  return [
    {
      name: 'memory',
      async open() {
        return { store: new MemoryRunStateStore(), close: async () => undefined };
      },
      async upgrade(run) {
        // Memory holds nothing across versions: replay what the previous version did through its API.
        const store = new MemoryRunStateStore();
        await store.save(run.runId, run.state);
        const claim = (await store.claim(run.runId, { workerId: 'previous', leaseMs: 1 }))!;
        for (const output of run.outputs) await store.commitToolOutput(claim, output);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { store, close: async () => undefined };
      },
    },
    {
      name: 'sqlite',
      async open() {
        const file = sqliteFile();
        const db = new Database(file);
        const store = new SqliteRunStateStore(db);
        await store.init();
        return { store, close: async () => (db.close(), rmSync(dirname(file), { recursive: true, force: true })) };
      },
      async upgrade(run) {
        const file = sqliteFile();
        const db = new Database(file);
        for (const sql of previousDdl('baton_', 'INTEGER')) db.exec(sql);
        db.prepare(
          `INSERT INTO baton_paused_runs (run_id, status, state, schema_version, revision, claim_token, claimed_by, lease_expires_at, updated_at) VALUES (?, 'running', ?, '1', 2, 'old-token', 'previous', ?, ?)`,
        ).run(run.runId, run.state, lapsed(), lapsed());
        for (const output of run.outputs) db.prepare(`INSERT INTO baton_committed_tool_outputs VALUES (?, ?, ?, ?)`).run(run.runId, output.callId, output.item, lapsed());
        const store = new SqliteRunStateStore(db);
        await store.init();
        return { store, close: async () => (db.close(), rmSync(dirname(file), { recursive: true, force: true })) };
      },
    },
    {
      name: 'postgres',
      async open() {
        const pool = new pg.Pool({ connectionString: connectionString(), max: 4 });
        const store = new PostgresRunStateStore(pool, { tablePrefix: `j${++schema}_` });
        await store.init();
        return { store, close: () => pool.end() };
      },
      async upgrade(run) {
        const pool = new pg.Pool({ connectionString: connectionString(), max: 4 });
        const prefix = `j${++schema}_`;
        for (const sql of previousDdl(prefix, 'BIGINT')) await pool.query(sql);
        await pool.query(
          `INSERT INTO ${prefix}paused_runs (run_id, status, state, schema_version, revision, claim_token, claimed_by, lease_expires_at, updated_at) VALUES ($1, 'running', $2, '1', 2, 'old-token', 'previous', $3, $3)`,
          [run.runId, run.state, lapsed()],
        );
        for (const output of run.outputs) await pool.query(`INSERT INTO ${prefix}committed_tool_outputs VALUES ($1, $2, $3, $4)`, [run.runId, output.callId, output.item, lapsed()]);
        const store = new PostgresRunStateStore(pool, { tablePrefix: prefix });
        await store.init();
        return { store, close: () => pool.end() };
      },
    },
  ];
}
