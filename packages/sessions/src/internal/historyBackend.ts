import type * as Effect from 'effect/Effect';
import type { UserError } from '@baton/types';

/**
 * One session's history inside a write transaction. Items are their stored JSON text. The steps are
 * effects so that one program runs on both databases: synchronously inside a SQLite transaction,
 * awaited inside a PostgreSQL one.
 */
export interface HistoryTx {
  /** The last `count` items (all when omitted), oldest first. */
  tail(count?: number): Effect.Effect<string[]>;
  append(items: readonly string[]): Effect.Effect<void>;
  /** Removes the last `count` items and returns them, oldest first. */
  removeLast(count: number): Effect.Effect<string[]>;
  removeAll(): Effect.Effect<void>;
  /** The fingerprint an operation id was applied with, if it was. */
  operation(operationId: string): Effect.Effect<string | undefined>;
  recordOperation(operationId: string, fingerprint: string): Effect.Effect<void>;
  forgetOperations(): Effect.Effect<void>;
}

/** Where a SQL session keeps its items: one database, its tables created on first use. */
export interface HistoryBackend {
  /** Creates the tables when missing; refuses tables written by a newer version. */
  ensureSchema(): Promise<void>;
  /** The last `limit` items of a session (all when omitted), oldest first, read at once. */
  read(sessionId: string, limit: number | undefined): Promise<string[]>;
  /** Runs `program` in one write transaction, serialized with every other writer of the session. */
  write<A>(sessionId: string, program: (tx: HistoryTx) => Effect.Effect<A, UserError>): Promise<A>;
}
