import type { AgentInputItem, Session } from '@baton/types';
import { UserError } from '@baton/types';
import { canonicalJson } from './internal/serialization/fingerprint.js';
import { randomUuid } from './internal/uuid.js';
import {
  applySessionHistoryMutations,
  type SessionHistoryRewriteArgs,
  type SessionHistoryRewriteAwareSession,
  type SessionHistoryTransaction,
  type SessionHistoryTransactionArgs,
  type SessionHistoryTransactionAwareSession,
} from './sessionHistory.js';

/** Where a session reports what it does (the reference's `logger` option): any object with `debug`. */
export interface SessionLogger {
  debug(message: string, ...args: unknown[]): void;
}

export interface MemorySessionOptions {
  sessionId?: string;
  initialItems?: AgentInputItem[];
  logger?: SessionLogger;
}

/**
 * Conversation memory in this process. Items are copied on the way in and out. Supports the
 * reference's history rewrites and once-only history transactions.
 */
export class MemorySession implements Session, SessionHistoryRewriteAwareSession, SessionHistoryTransactionAwareSession {
  readonly #sessionId: string;
  readonly #logger: SessionLogger | undefined;
  #items: AgentInputItem[];
  /** Applied transactions by operation id, to answer a retried operation without applying it twice. */
  readonly #applied = new Map<string, string>();

  constructor(options: MemorySessionOptions = {}) {
    this.#sessionId = options.sessionId ?? randomUuid();
    this.#items = structuredClone(options.initialItems ?? []);
    this.#logger = options.logger;
  }

  async getSessionId(): Promise<string> {
    return this.#sessionId;
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (limit === undefined) return structuredClone(this.#items);
    if (limit <= 0) return [];
    return structuredClone(this.#items.slice(-limit));
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    this.#logger?.debug(`MemorySession ${this.#sessionId}: adding ${items.length} items`);
    this.#items.push(...structuredClone(items));
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    return this.#items.pop();
  }

  async clearSession(): Promise<void> {
    this.#items = [];
  }

  async applyHistoryMutations(args: SessionHistoryRewriteArgs): Promise<void> {
    if (args.mutations.length === 0) return;
    this.#items = applySessionHistoryMutations(this.#items, args.mutations);
  }

  /**
   * Applies a history transaction once per `operationId`: the same operation again is a no-op, a
   * different transaction under a used id is a `UserError`, and `replace_suffix` fails with a
   * `UserError` (changing nothing) when the history no longer ends with `expectedSuffix`.
   */
  async applyHistoryTransaction(args: SessionHistoryTransactionArgs): Promise<void> {
    const fingerprint = canonicalJson(args.transaction);
    const previous = this.#applied.get(args.operationId);
    if (previous !== undefined) {
      if (previous !== fingerprint) throw new UserError('Session history operation was already applied with a different transaction.');
      return;
    }
    this.#items = nextHistory(this.#items, args.transaction);
    this.#applied.set(args.operationId, fingerprint);
  }
}

function nextHistory(items: AgentInputItem[], transaction: SessionHistoryTransaction): AgentInputItem[] {
  if (transaction.type === 'append_items') return [...items, ...structuredClone(transaction.items)];
  if (transaction.type !== 'replace_suffix') {
    throw new UserError(`Unknown session history transaction type ${JSON.stringify((transaction as { type?: unknown }).type)}.`);
  }
  const start = items.length - transaction.expectedSuffix.length;
  if (start < 0 || canonicalJson(items.slice(start)) !== canonicalJson(transaction.expectedSuffix)) {
    throw new UserError('Session history suffix no longer matches the transaction precondition.');
  }
  return [...items.slice(0, start), ...structuredClone(transaction.replacement)];
}
