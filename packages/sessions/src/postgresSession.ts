import * as Effect from 'effect/Effect';
import type { UserError } from '@baton/types';
import type { PostgresPool, PostgresQueryable } from './sql/drivers.js';
import { inTransaction, lockTransaction } from './sql/postgres.js';
import { ensurePostgresSchema } from './sql/schemaVersions.js';
import type { HistoryBackend, HistoryTx } from './internal/historyBackend.js';
import { historySchema, historyTableNames, type HistoryTableNames } from './internal/historyTables.js';
import { runOrThrow } from './internal/runEffect.js';
import { SqlSession, type SqlSessionOptions } from './sqlSession.js';

const INSERT_BATCH = 1000;

export type PostgresSessionOptions<TContext = unknown> = SqlSessionOptions<TContext>;

/**
 * A session in PostgreSQL through `pg` (pass a `Pool`). Every write is a transaction holding a lock
 * on the conversation (an advisory lock on its id), so writers in any number of processes append
 * one after another, while different conversations are written in parallel.
 *
 * ```ts
 * const session = new PostgresSession(new pg.Pool({ connectionString }), { sessionId: 'chat-42' });
 * await run(agent, 'Hello', { session });
 * ```
 */
export class PostgresSession<TContext = unknown> extends SqlSession<TContext> {
  constructor(pool: PostgresPool, options: PostgresSessionOptions<TContext> = {}) {
    super(postgresHistory(pool, historyTableNames(options.tablePrefix)), options);
  }
}

function postgresHistory(pool: PostgresPool, t: HistoryTableNames): HistoryBackend {
  const schema = historySchema(t);
  const rows = async (client: PostgresQueryable, sessionId: string, count: number | undefined): Promise<string[]> => {
    const { rows: found } =
      count === undefined
        ? await client.query(`SELECT item FROM ${t.items} WHERE session_id = $1 ORDER BY position`, [sessionId])
        : await client.query(`SELECT item FROM ${t.items} WHERE session_id = $1 ORDER BY position DESC LIMIT $2`, [sessionId, count]);
    const items = (found as Array<{ item: string }>).map((row) => row.item);
    return count === undefined ? items : items.reverse();
  };
  const query = (client: PostgresQueryable, text: string, values: unknown[]) => Effect.promise(() => client.query(text, values));
  const txFor = (client: PostgresQueryable, sessionId: string): HistoryTx => ({
    tail: (count) => Effect.promise(() => rows(client, sessionId, count)),
    append: (items) =>
      Effect.gen(function* () {
        const { rows: found } = yield* query(client, `SELECT COALESCE(MAX(position), 0) AS last FROM ${t.items} WHERE session_id = $1`, [sessionId]);
        const last = Number(found[0].last);
        // A statement takes at most 65,535 parameters: rows go in batches.
        for (let start = 0; start < items.length; start += INSERT_BATCH) {
          const batch = items.slice(start, start + INSERT_BATCH);
          const values = batch.map((_, i) => `($1, $${2 * i + 2}, $${2 * i + 3})`).join(', ');
          yield* query(client, `INSERT INTO ${t.items} (session_id, position, item) VALUES ${values}`, [sessionId, ...batch.flatMap((item, i) => [last + start + i + 1, item])]);
        }
      }),
    removeLast: (count) =>
      Effect.gen(function* () {
        const { rows: removed } = yield* query(
          client,
          `DELETE FROM ${t.items} WHERE session_id = $1 AND position IN (SELECT position FROM ${t.items} WHERE session_id = $1 ORDER BY position DESC LIMIT $2)
           RETURNING position, item`,
          [sessionId, count],
        );
        return (removed as Array<{ position: string | number; item: string }>).sort((a, b) => Number(a.position) - Number(b.position)).map((row) => row.item);
      }),
    removeAll: () => Effect.asVoid(query(client, `DELETE FROM ${t.items} WHERE session_id = $1`, [sessionId])),
    operation: (operationId) =>
      Effect.map(
        query(client, `SELECT fingerprint FROM ${t.operations} WHERE session_id = $1 AND operation_id = $2`, [sessionId, operationId]),
        ({ rows: found }) => found[0]?.fingerprint as string | undefined,
      ),
    recordOperation: (operationId, fingerprint) =>
      Effect.asVoid(query(client, `INSERT INTO ${t.operations} (session_id, operation_id, fingerprint) VALUES ($1, $2, $3)`, [sessionId, operationId, fingerprint])),
    forgetOperations: () => Effect.asVoid(query(client, `DELETE FROM ${t.operations} WHERE session_id = $1`, [sessionId])),
  });
  return {
    ensureSchema: () => ensurePostgresSchema(pool, schema),
    read: (sessionId, limit) => rows(pool, sessionId, limit),
    write: <A>(sessionId: string, program: (tx: HistoryTx) => Effect.Effect<A, UserError>) =>
      inTransaction(pool, async (client) => {
        await lockTransaction(client, t.items, sessionId);
        return runOrThrow(program(txFor(client, sessionId)));
      }),
  };
}
