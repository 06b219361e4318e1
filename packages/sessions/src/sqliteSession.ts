import * as Effect from 'effect/Effect';
import type { UserError } from '@baton/types';
import type { SqliteDatabase } from './sql/drivers.js';
import { ensureSqliteSchema } from './sql/schemaVersions.js';
import { immediate, setBusyTimeout } from './sql/sqlite.js';
import type { HistoryBackend, HistoryTx } from './internal/historyBackend.js';
import { historySchema, historyTableNames, type HistoryTableNames } from './internal/historyTables.js';
import { runSyncOrThrow } from './internal/runEffect.js';
import { SqlSession, type SqlSessionOptions } from './sqlSession.js';

export interface SqliteSessionOptions<TContext = unknown> extends SqlSessionOptions<TContext> {
  /** How long a connection waits for another one's write lock (sets `busy_timeout`; default 5000 ms). */
  busyTimeoutMs?: number | undefined;
}

/**
 * A session in SQLite through `better-sqlite3` (pass the `Database`). Every write is a `BEGIN
 * IMMEDIATE` transaction, so processes sharing the file write one after another.
 *
 * ```ts
 * const session = new SqliteSession(new Database('chat.db'), { sessionId: 'chat-42' });
 * await run(agent, 'Hello', { session });
 * ```
 */
export class SqliteSession<TContext = unknown> extends SqlSession<TContext> {
  constructor(db: SqliteDatabase, options: SqliteSessionOptions<TContext> = {}) {
    const tables = historyTableNames(options.tablePrefix);
    setBusyTimeout(db, options.busyTimeoutMs);
    super(sqliteHistory(db, tables), options);
  }
}

function sqliteHistory(db: SqliteDatabase, t: HistoryTableNames): HistoryBackend {
  const schema = historySchema(t);
  const rows = (sessionId: string, count: number | undefined): string[] => {
    const found = (
      count === undefined
        ? db.prepare(`SELECT item FROM ${t.items} WHERE session_id = ? ORDER BY position`).all(sessionId)
        : db.prepare(`SELECT item FROM ${t.items} WHERE session_id = ? ORDER BY position DESC LIMIT ?`).all(sessionId, count).reverse()
    ) as Array<{ item: string }>;
    return found.map((row) => row.item);
  };
  const txFor = (sessionId: string): HistoryTx => ({
    tail: (count) => Effect.sync(() => rows(sessionId, count)),
    append: (items) =>
      Effect.sync(() => {
        const { last } = db.prepare(`SELECT COALESCE(MAX(position), 0) AS last FROM ${t.items} WHERE session_id = ?`).get(sessionId) as { last: number };
        const insert = db.prepare(`INSERT INTO ${t.items} (session_id, position, item) VALUES (?, ?, ?)`);
        items.forEach((item, i) => insert.run(sessionId, last + i + 1, item));
      }),
    removeLast: (count) =>
      Effect.sync(() => {
        const removed = db
          .prepare(`SELECT position, item FROM ${t.items} WHERE session_id = ? ORDER BY position DESC LIMIT ?`)
          .all(sessionId, count) as Array<{ position: number; item: string }>;
        if (removed.length > 0) db.prepare(`DELETE FROM ${t.items} WHERE session_id = ? AND position >= ?`).run(sessionId, removed[removed.length - 1]!.position);
        return removed.reverse().map((row) => row.item);
      }),
    removeAll: () => Effect.sync(() => void db.prepare(`DELETE FROM ${t.items} WHERE session_id = ?`).run(sessionId)),
    operation: (operationId) =>
      Effect.sync(
        () =>
          (db.prepare(`SELECT fingerprint FROM ${t.operations} WHERE session_id = ? AND operation_id = ?`).get(sessionId, operationId) as { fingerprint: string } | undefined)
            ?.fingerprint,
      ),
    recordOperation: (operationId, fingerprint) =>
      Effect.sync(() => void db.prepare(`INSERT INTO ${t.operations} (session_id, operation_id, fingerprint) VALUES (?, ?, ?)`).run(sessionId, operationId, fingerprint)),
    forgetOperations: () => Effect.sync(() => void db.prepare(`DELETE FROM ${t.operations} WHERE session_id = ?`).run(sessionId)),
  });
  return {
    ensureSchema: async () => ensureSqliteSchema(db, schema),
    read: async (sessionId, limit) => rows(sessionId, limit),
    write: async <A>(sessionId: string, program: (tx: HistoryTx) => Effect.Effect<A, UserError>) => immediate(db, () => runSyncOrThrow(program(txFor(sessionId)))),
  };
}
