import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { UserError, type AgentInputItem } from '@baton/types';
import { startScriptProcess } from '@baton/testing';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { PostgresSession, SESSIONS_SCHEMA_VERSION, SchemaVersionError, SqliteSession, type SqlSession } from '../src/index.js';

let dir: string;
let postgres: PostgresServer;
let pool: pg.Pool;
const dbs: Database.Database[] = [];
let prefixes = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'baton-sessions-'));
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.connectionString, max: 4 });
});

afterAll(async () => {
  for (const db of dbs) db.close();
  await pool?.end();
  postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sqliteFile = () => join(dir, `s${++prefixes}.db`);
function sqliteDb(file = sqliteFile()): Database.Database {
  const db = new Database(file);
  dbs.push(db);
  return db;
}

interface Backend {
  name: 'sqlite' | 'postgres';
  /** A session on fresh tables (a new file, or a new prefix). */
  fresh(options?: { sessionId?: string }): { session: SqlSession; sql(text: string): Promise<unknown[]>; prefix: string; again(sessionId: string): SqlSession };
}

const backends: Backend[] = [
  {
    name: 'sqlite',
    fresh(options = {}) {
      const db = sqliteDb();
      return {
        session: new SqliteSession(db, options),
        sql: async (text) => {
          const statement = db.prepare(text);
          return statement.reader ? statement.all() : (statement.run(), []);
        },
        prefix: 'baton_',
        again: (sessionId) => new SqliteSession(db, { sessionId }),
      };
    },
  },
  {
    name: 'postgres',
    fresh(options = {}) {
      const prefix = `t${++prefixes}_`;
      return {
        session: new PostgresSession(pool, { ...options, tablePrefix: prefix }),
        sql: async (text) => (await pool.query(text.replaceAll('baton_', prefix))).rows,
        prefix,
        again: (sessionId) => new PostgresSession(pool, { sessionId, tablePrefix: prefix }),
      };
    },
  },
];

const user = (content: string): AgentInputItem => ({ role: 'user', content });

describe.each(backends)('$name session', (backend) => {
  it('creates its tables on first use, with a schema version row', async () => {
    const { session, sql } = backend.fresh();
    await session.addItems([user('hello')]);
    expect(await sql(`SELECT component, version FROM baton_schema_versions`)).toEqual([{ component: '@baton/sessions', version: SESSIONS_SCHEMA_VERSION }]);
    expect(await sql(`SELECT item FROM baton_session_items`)).toEqual([{ item: JSON.stringify(user('hello')) }]);
  });

  it('refuses tables written by a newer version, naming both versions, and changes nothing', async () => {
    const { session, sql, again } = backend.fresh({ sessionId: 'chat' });
    await session.addItems([user('kept')]);
    await sql(`UPDATE baton_schema_versions SET version = ${SESSIONS_SCHEMA_VERSION + 1} WHERE component = '@baton/sessions'`);
    const newer = again('chat');
    const error = await newer.getItems().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SchemaVersionError);
    expect(error).toBeInstanceOf(UserError);
    expect(error).toMatchObject({ component: '@baton/sessions', found: SESSIONS_SCHEMA_VERSION + 1, supported: SESSIONS_SCHEMA_VERSION });
    expect((error as Error).message).toContain(`schema version ${SESSIONS_SCHEMA_VERSION + 1} of @baton/sessions`);
    expect((error as Error).message).toContain(`reads schema version ${SESSIONS_SCHEMA_VERSION} and older`);
    await expect(newer.addItems([user('refused')])).rejects.toBeInstanceOf(SchemaVersionError);
    expect(await sql(`SELECT item FROM baton_session_items`)).toEqual([{ item: JSON.stringify(user('kept')) }]);
  });

  it('keeps bytes as bytes', async () => {
    const { session, again } = backend.fresh({ sessionId: 'bytes' });
    const item = { ...user('with bytes'), providerData: { data: new Uint8Array([0, 1, 254, 255]) } } as AgentInputItem;
    await session.addItems([item]);
    const [read] = await again('bytes').getItems();
    expect(read!.providerData!.data).toBeInstanceOf(Uint8Array);
    expect([...(read!.providerData!.data as Uint8Array)]).toEqual([0, 1, 254, 255]);
  });

  it('refuses items that are not JSON, naming which, and writes none of the call', async () => {
    const { session } = backend.fresh();
    const cyclic: Record<string, unknown> = { role: 'user', content: 'cyclic' };
    cyclic.self = cyclic;
    await expect(session.addItems([user('fine'), cyclic as unknown as AgentInputItem])).rejects.toThrow(/Session item 1 cannot be stored as JSON/);
    await expect(session.addItems([user('fine'), { role: 'user', content: 'big', providerData: { n: 1n } } as unknown as AgentInputItem])).rejects.toThrow(UserError);
    await expect(session.addItems('nope' as unknown as AgentInputItem[])).rejects.toThrow('addItems takes an array of items');
    expect(await session.getItems()).toEqual([]);
  });

  it('refuses a limit that is not a number', async () => {
    const { session } = backend.fresh();
    await expect(session.getItems('2' as unknown as number)).rejects.toThrow('getItems takes a number of items, got "2".');
    await expect(session.getItems(Number.NaN)).rejects.toThrow(UserError);
  });

  it('takes its conversation from the run context when given a function', async () => {
    const { session: fixed } = backend.fresh();
    expect(await fixed.getSessionId()).toMatch(/^[0-9a-f-]{36}$/);
    const byContext = backend.name === 'sqlite' ? new SqliteSession(sqliteDb(), { sessionId: (ctx) => `chat-${(ctx?.context as { id: string }).id}` }) : new PostgresSession(pool, { sessionId: (ctx) => `chat-${(ctx?.context as { id: string }).id}`, tablePrefix: `c${++prefixes}_` });
    const context = (id: string) => ({ context: { id } }) as never;
    expect(byContext.acceptsRunContext).toBe(true);
    expect(await byContext.getSessionId(context('7'))).toBe('chat-7');
    await byContext.addItems([user('seven')], context('7'));
    await byContext.addItems([user('eight')], context('8'));
    expect(await byContext.getItems(undefined, context('7'))).toEqual([user('seven')]);
    expect(await byContext.popItem(context('8'))).toEqual(user('eight'));
    await expect(byContext.getItems(undefined, { context: { id: '' } } as never)).resolves.toEqual([]);
    const empty = backend.name === 'sqlite' ? new SqliteSession(sqliteDb(), { sessionId: () => '' }) : new PostgresSession(pool, { sessionId: () => '' });
    await expect(empty.getItems()).rejects.toThrow('A session id must be a non-empty string, got "".');
  });

  it('applies a history transaction retried through another session object once', async () => {
    const { session, again } = backend.fresh({ sessionId: 'retried' });
    await session.addItems([user('start')]);
    const transaction = { operationId: 'op-1', transaction: { type: 'append_items' as const, items: [user('committed')] } };
    await Promise.all([session.applyHistoryTransaction(transaction), again('retried').applyHistoryTransaction(transaction), again('retried').applyHistoryTransaction(transaction)]);
    expect(await again('retried').getItems()).toEqual([user('start'), user('committed')]);
    await expect(again('retried').applyHistoryTransaction({ ...transaction, transaction: { type: 'append_items', items: [user('other')] } })).rejects.toThrow(
      'already applied with a different transaction',
    );
  });

  it('two processes appending to one conversation at once lose nothing and keep each call together', async () => {
    const file = sqliteFile();
    const sessionId = 'shared-chat';
    const prefix = `p${++prefixes}_`;
    const target = backend.name === 'sqlite' ? file : postgres.connectionString;
    // The tables exist before the writers start, so both race on the items only.
    const reader = backend.name === 'sqlite' ? new SqliteSession(sqliteDb(file), { sessionId }) : new PostgresSession(pool, { sessionId, tablePrefix: prefix });
    await reader.init();
    const worker = fileURLToPath(new URL('./support/appendWorker.ts', import.meta.url));
    const env = backend.name === 'postgres' ? { BATON_TABLE_PREFIX: prefix } : {};
    const writers = ['a', 'b'].map((writer) =>
      startScriptProcess({ script: worker, args: [backend.name, target, sessionId, writer, '40'], cwd: fileURLToPath(new URL('..', import.meta.url)), env }),
    );
    const exits = await Promise.all(writers.map((w) => w.exited));
    expect(exits.map((e) => e.code), writers.map((w) => w.output()).join('\n')).toEqual([0, 0]);
    const texts = (await reader.getItems()).map((item) => (item as { content: string }).content);
    expect(texts).toHaveLength(240);
    for (let i = 0; i < texts.length; i += 3) {
      const head = texts[i]!.split(':')[0];
      expect(texts.slice(i, i + 3)).toEqual([`${head}:1`, `${head}:2`, `${head}:3`]);
    }
    for (const writer of ['a', 'b']) {
      const own = texts.filter((text) => text.startsWith(writer) && text.endsWith(':1')).map((text) => Number(text.slice(1, -2)));
      expect(own).toEqual(Array.from({ length: 40 }, (_, n) => n));
    }
  }, 60_000);
});

describe('table prefixes', () => {
  it('refuses a prefix that is not an identifier, or too long for PostgreSQL, naming the limit', () => {
    const db = sqliteDb();
    expect(() => new SqliteSession(db, { tablePrefix: 'bad-prefix' })).toThrow('tablePrefix must be letters, digits and _ (not starting with a digit), got "bad-prefix".');
    expect(() => new PostgresSession(pool, { tablePrefix: '1x' })).toThrow(UserError);
    expect(() => new SqliteSession(db, { tablePrefix: 'x'.repeat(46) })).toThrow(/at most 45 are allowed/);
    expect(() => new SqliteSession(db, { tablePrefix: 'x'.repeat(45) })).not.toThrow();
  });

  it('keeps sessions under different prefixes apart in one database', async () => {
    const db = sqliteDb();
    const a = new SqliteSession(db, { sessionId: 'same', tablePrefix: 'app_a_' });
    const b = new SqliteSession(db, { sessionId: 'same', tablePrefix: 'app_b_' });
    await a.addItems([user('a')]);
    expect(await b.getItems()).toEqual([]);
    expect(await a.getItems()).toEqual([user('a')]);
  });
});

describe('PostgreSQL setup', () => {
  it('tries the setup again on the next call after the database was unreachable', async () => {
    const server = await startPostgres();
    const local = new pg.Pool({ connectionString: server.connectionString, max: 1, connectionTimeoutMillis: 2000 });
    local.on('error', () => undefined);
    try {
      const session = new PostgresSession(local, { sessionId: 'outage' });
      server.pause();
      await expect(session.addItems([user('lost')])).rejects.toThrow();
      server.start();
      await session.addItems([user('kept')]);
      expect(await session.getItems()).toEqual([user('kept')]);
    } finally {
      await local.end();
      server.stop();
    }
  }, 60_000);
});
