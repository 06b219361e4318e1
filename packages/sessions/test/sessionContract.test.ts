import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Agent, MemorySession, run, tool } from '@baton/core';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { describeSessionContract } from '@baton/testing/session-contract';
import { PostgresSession, SqliteSession } from '../src/index.js';

const runtime = { Agent, run, tool };

let dir: string;
let db: Database.Database;
let postgres: PostgresServer;
let pool: pg.Pool;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'baton-session-contract-'));
  db = new Database(join(dir, 'sessions.db'));
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.connectionString, max: 4 });
});

afterAll(async () => {
  db?.close();
  await pool?.end();
  postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describeSessionContract('MemorySession', {
  makeSession: (sessionId) => new MemorySession({ sessionId }),
  persistent: false,
  runtime,
});

describeSessionContract('SqliteSession', {
  makeSession: (sessionId) => new SqliteSession(db, { sessionId }),
  makeContextSession: (pick) => new SqliteSession(db, { sessionId: pick }),
  persistent: true,
  runtime,
});

describeSessionContract('PostgresSession', {
  makeSession: (sessionId) => new PostgresSession(pool, { sessionId }),
  makeContextSession: (pick) => new PostgresSession(pool, { sessionId: pick }),
  persistent: true,
  runtime,
});
