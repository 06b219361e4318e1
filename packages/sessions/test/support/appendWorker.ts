// A writer process: appends `count` calls of three items each to one conversation, as fast as it can.
// argv: <sqlite|postgres> <file or connection string> <sessionId> <writer> <count>
import Database from 'better-sqlite3';
import pg from 'pg';
import { PostgresSession, SqliteSession } from '../../src/index.js';

const [kind, target, sessionId, writer, count] = process.argv.slice(2) as [string, string, string, string, string];
const pool = kind === 'postgres' ? new pg.Pool({ connectionString: target, max: 2 }) : undefined;
const db = kind === 'sqlite' ? new Database(target) : undefined;
const session = pool ? new PostgresSession(pool, { sessionId, tablePrefix: process.env.BATON_TABLE_PREFIX }) : new SqliteSession(db!, { sessionId, busyTimeoutMs: 30_000 });
await session.init();
console.log('ready');
for (let n = 0; n < Number(count); n++) {
  await session.addItems([1, 2, 3].map((part) => ({ role: 'user', content: `${writer}${n}:${part}` })));
}
console.log('done');
db?.close();
await pool?.end();
