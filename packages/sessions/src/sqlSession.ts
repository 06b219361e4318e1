import * as Effect from 'effect/Effect';
import {
  applySessionHistoryMutations,
  type RunContext,
  type RunContextAwareSession,
  type SessionHistoryRewriteArgs,
  type SessionHistoryRewriteAwareSession,
  type SessionHistoryTransactionArgs,
  type SessionHistoryTransactionAwareSession,
  type SessionLogger,
} from '@baton/core';
import { UserError, type AgentInputItem } from '@baton/types';
import { checkTransaction, endsWith, type CheckedTransaction } from './internal/checkedTransaction.js';
import type { HistoryBackend, HistoryTx } from './internal/historyBackend.js';
import { decodeItem, encodeItem } from './internal/itemCodec.js';

/** Which conversation a session reads and writes: a fixed id, or one taken from each run's context. */
export type SessionIdSource<TContext = unknown> = string | ((runContext: RunContext<TContext> | undefined) => string);

export interface SqlSessionOptions<TContext = unknown> {
  /**
   * The conversation (default: a new random id). A function makes one session object serve many
   * conversations: the runner passes each call the run's context (`(ctx) => ctx!.context.chatId`).
   */
  sessionId?: SessionIdSource<TContext> | undefined;
  /** Table names start with this (default `baton_`): letters, digits and `_`, at most 45 characters (PostgreSQL's identifier limit). */
  tablePrefix?: string | undefined;
  /** Where the session reports what it does (item counts, never their content). */
  logger?: SessionLogger | undefined;
}

/**
 * Conversation history in a SQL database (see `SqliteSession`, `PostgresSession`). The tables are
 * created on first use, beside a schema version row: tables written by a newer version are refused.
 * Every write is one transaction serialized with the session's other writers, so processes appending
 * at once lose nothing and each call's items stay together, in order. Supports the runner's history
 * rewrites and once-only history transactions, and takes the run's context as its last argument.
 */
export class SqlSession<TContext = unknown>
  implements RunContextAwareSession<TContext>, SessionHistoryRewriteAwareSession, SessionHistoryTransactionAwareSession
{
  readonly acceptsRunContext = true as const;
  readonly #backend: HistoryBackend;
  readonly #sessionId: SessionIdSource<TContext>;
  readonly #logger: SessionLogger | undefined;
  #ready: Promise<void> | undefined;

  protected constructor(backend: HistoryBackend, options: SqlSessionOptions<TContext>) {
    this.#backend = backend;
    const sessionId = options.sessionId ?? globalThis.crypto.randomUUID();
    if (typeof sessionId !== 'function') requireSessionId(sessionId);
    this.#sessionId = sessionId;
    this.#logger = options.logger;
  }

  /** Creates the tables if they are missing (every method does it on first use); refuses tables of a newer version. */
  init(): Promise<void> {
    this.#ready ??= this.#backend.ensureSchema().catch((error: unknown) => {
      this.#ready = undefined; // a failed setup (a database down) is tried again by the next call
      throw error;
    });
    return this.#ready;
  }

  async getSessionId(runContext?: RunContext<TContext>): Promise<string> {
    return typeof this.#sessionId === 'function' ? requireSessionId(this.#sessionId(runContext)) : this.#sessionId;
  }

  async getItems(limit?: number, runContext?: RunContext<TContext>): Promise<AgentInputItem[]> {
    const count = requireLimit(limit);
    if (count === 0) return [];
    const sessionId = await this.#open(runContext);
    return (await this.#backend.read(sessionId, count)).map(decodeItem);
  }

  async addItems(items: AgentInputItem[], runContext?: RunContext<TContext>): Promise<void> {
    if (!Array.isArray(items)) throw new UserError(`addItems takes an array of items, got ${typeof items}.`);
    const texts = items.map(encodeStored);
    if (texts.length === 0) return;
    const sessionId = await this.#open(runContext);
    this.#logger?.debug(`SqlSession ${sessionId}: adding ${texts.length} items`);
    await this.#backend.write(sessionId, (tx) => tx.append(texts));
  }

  async popItem(runContext?: RunContext<TContext>): Promise<AgentInputItem | undefined> {
    const sessionId = await this.#open(runContext);
    const [text] = await this.#backend.write(sessionId, (tx) => tx.removeLast(1));
    return text === undefined ? undefined : decodeItem(text);
  }

  /** Deletes the conversation's items; operation ids applied before may be applied again. */
  async clearSession(runContext?: RunContext<TContext>): Promise<void> {
    const sessionId = await this.#open(runContext);
    await this.#backend.write(sessionId, (tx) =>
      Effect.gen(function* () {
        yield* tx.removeAll();
        yield* tx.forgetOperations();
      }),
    );
  }

  async applyHistoryMutations(args: SessionHistoryRewriteArgs, runContext?: RunContext<TContext>): Promise<void> {
    if (args.mutations.length === 0) return;
    const sessionId = await this.#open(runContext);
    await this.#backend.write(sessionId, (tx) =>
      Effect.gen(function* () {
        const history = (yield* tx.tail()).map(decodeItem);
        const next = applySessionHistoryMutations(history, args.mutations).map(encodeStored);
        yield* tx.removeAll();
        yield* tx.append(next);
      }),
    );
  }

  /**
   * Applies a history transaction once per `operationId`, as `MemorySession` does: the same operation
   * again is a no-op, a different transaction under a used id is a `UserError`, and `replace_suffix`
   * fails with a `UserError` (changing nothing) when the history no longer ends with `expectedSuffix`.
   * The check, the change and the record of the operation are one database transaction.
   */
  async applyHistoryTransaction(args: SessionHistoryTransactionArgs, runContext?: RunContext<TContext>): Promise<void> {
    const checked = await checkTransaction(args);
    const sessionId = await this.#open(runContext);
    await this.#backend.write(sessionId, (tx) => applyChecked(tx, checked));
  }

  async #open(runContext: RunContext<TContext> | undefined): Promise<string> {
    const sessionId = await this.getSessionId(runContext);
    await this.init();
    return sessionId;
  }
}

function applyChecked(tx: HistoryTx, { operationId, transaction, fingerprint }: CheckedTransaction): Effect.Effect<void, UserError> {
  return Effect.gen(function* () {
    const applied = yield* tx.operation(operationId);
    if (applied !== undefined) {
      if (applied !== fingerprint) return yield* Effect.fail(new UserError('Session history operation was already applied with a different transaction.'));
      return;
    }
    if (transaction.type === 'append_items') {
      yield* tx.append(transaction.items.map(encodeItem));
    } else {
      const count = transaction.expectedSuffix.length;
      const tail = count === 0 ? [] : (yield* tx.tail(count)).map(decodeItem);
      if (tail.length < count || !endsWith(tail, transaction.expectedSuffix)) {
        return yield* Effect.fail(new UserError('Session history suffix no longer matches the transaction precondition.'));
      }
      yield* tx.removeLast(count);
      yield* tx.append(transaction.replacement.map(encodeItem));
    }
    yield* tx.recordOperation(operationId, fingerprint);
  });
}

function requireSessionId(sessionId: unknown): string {
  if (typeof sessionId !== 'string' || sessionId === '') throw new UserError(`A session id must be a non-empty string, got ${JSON.stringify(sessionId) ?? String(sessionId)}.`);
  return sessionId;
}

/** `undefined` for every item, else a whole number of items (0 or less reads none). */
function requireLimit(limit: unknown): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== 'number' || Number.isNaN(limit)) throw new UserError(`getItems takes a number of items, got ${JSON.stringify(limit) ?? String(limit)}.`);
  return limit === Infinity ? undefined : Math.max(0, Math.floor(limit));
}

function encodeStored(item: AgentInputItem, index: number): string {
  if (typeof item !== 'object' || item === null) throw new UserError(`Session item ${index} is not an object.`);
  try {
    return encodeItem(item);
  } catch (error) {
    throw new UserError(`Session item ${index} cannot be stored as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
