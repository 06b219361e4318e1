import type { AgentInputItem, Session } from '@baton/types';
import { UserError } from '@baton/types';
import { canonicalJson } from './internal/serialization/fingerprint.js';
import { randomUuid } from '../definitions/internal/uuid.js';
import {
  applySessionHistoryMutations,
  type SessionHistoryRewriteArgs,
  type SessionHistoryRewriteAwareSession,
  type SessionHistoryTransaction,
  type SessionHistoryTransactionArgs,
  type SessionHistoryTransactionAwareSession,
} from './sessionHistory.js';

/**
 * Where a session reports what it does (the reference's `logger` option): any object with `debug`.
 * Item contents appear in its lines only when the logger says both model and tool data may be
 * logged (`dontLogModelData` and `dontLogToolData` both `false`, as a `Logger` from `getLogger` reports
 * after `setSensitiveDataLoggingEnabled(true)`); otherwise only counts are written.
 */
export interface SessionLogger {
  debug(message: string, ...args: unknown[]): void;
  readonly dontLogModelData?: boolean;
  readonly dontLogToolData?: boolean;
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
    if (limit !== undefined && limit <= 0) return [];
    const items = structuredClone(limit === undefined ? this.#items : this.#items.slice(-limit));
    this.#log('getting', items);
    return items;
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    const copies = structuredClone(items);
    this.#log('adding', copies);
    this.#items.push(...copies);
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    const item = this.#items.pop();
    if (item !== undefined) this.#log('popping', [item]);
    return item;
  }

  /** A debug line naming what happened; the items themselves only when the logger allows model and tool data. */
  #log(action: string, items: readonly AgentInputItem[]): void {
    const logger = this.#logger;
    if (logger === undefined) return;
    const what = `MemorySession ${this.#sessionId}: ${action} ${items.length} item${items.length === 1 ? '' : 's'}`;
    if (logger.dontLogModelData === false && logger.dontLogToolData === false) logger.debug(`${what}: ${JSON.stringify(items)}`);
    else logger.debug(what);
  }

  async clearSession(): Promise<void> {
    this.#items = [];
    // A cleared session starts over: operation ids applied before may be applied again.
    this.#applied.clear();
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
    // The transaction is read once, checked and copied before anything changes: a rejected one
    // leaves the history and the applied operation ids as they were.
    const { operationId, transaction } = checkedTransaction(args);
    return this.#apply({ operationId, transaction });
  }

  async #apply(args: SessionHistoryTransactionArgs): Promise<void> {
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

const INVALID_ITEMS = 'Session history transaction items contain invalid or unsupported data.';

/** A checked copy of a transaction: its fields as the reference allows them, its items plain JSON-like data (bytes as Uint8Array). */
function checkedTransaction(args: SessionHistoryTransactionArgs): SessionHistoryTransactionArgs {
  if (typeof args !== 'object' || args === null) throw new UserError('Session history transaction must be an object.');
  const { operationId, transaction } = readEnvelope(args);
  if (typeof operationId !== 'string' || operationId.trim() === '') throw new UserError('Session history transaction operationId must be a non-empty string.');
  if (typeof transaction !== 'object' || transaction === null) throw new UserError('Session history transaction must be an object.');
  const keys = Object.keys(transaction).sort().join(',');
  if (transaction.type === 'append_items') {
    if (keys !== 'items,type') throw new UserError('Session history append transaction fields are invalid.');
    return { operationId, transaction: { type: 'append_items', items: snapshotItems(transaction.items) } };
  }
  if (transaction.type === 'replace_suffix') {
    if (keys !== 'expectedSuffix,replacement,type') throw new UserError('Session history suffix transaction fields are invalid.');
    return {
      operationId,
      transaction: { type: 'replace_suffix', expectedSuffix: snapshotItems(transaction.expectedSuffix), replacement: snapshotItems(transaction.replacement) },
    };
  }
  throw new UserError(`Unsupported session history transaction type ${JSON.stringify((transaction as { type?: unknown }).type)}.`);
}

/**
 * Reads `operationId` and `transaction` once each. A getter that throws makes the arguments invalid;
 * its message is not repeated, since it may hold anything (a key, a customer's text).
 */
function readEnvelope(args: SessionHistoryTransactionArgs): { operationId: unknown; transaction: SessionHistoryTransaction } {
  try {
    return { operationId: args.operationId, transaction: args.transaction };
  } catch {
    throw new UserError('Session history transaction arguments are invalid.');
  }
}

function snapshotItems(items: unknown): AgentInputItem[] {
  if (!Array.isArray(items)) throw new UserError(INVALID_ITEMS);
  // A value the structured clone refuses (a Proxy, a function, a class the platform cannot copy) is
  // not data a session can keep, whatever the walk below would make of it.
  try {
    structuredClone(items);
  } catch {
    throw new UserError(INVALID_ITEMS);
  }
  const copy = snapshot(items, new Set()) as unknown[];
  if (copy.some((item) => typeof item !== 'object' || item === null || Array.isArray(item))) throw new UserError(INVALID_ITEMS);
  return copy as AgentInputItem[];
}

/** A deep copy of JSON-like data; anything else (dates, bigints, symbols, cycles, holes, hidden or symbol keys, typed arrays other than bytes) is refused. */
function snapshot(value: unknown, path: Set<object>): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new UserError(INVALID_ITEMS);
    return value;
  }
  if (typeof value !== 'object') throw new UserError(INVALID_ITEMS);
  if (path.has(value)) throw new UserError(INVALID_ITEMS);
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) throw new UserError(INVALID_ITEMS);
  path.add(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        if (!Object.prototype.hasOwnProperty.call(value, i)) throw new UserError(INVALID_ITEMS);
        out.push(snapshot(value[i], path));
      }
      return out;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw new UserError(INVALID_ITEMS);
    if (Object.getOwnPropertySymbols(value).length > 0) throw new UserError(INVALID_ITEMS);
    const out: Record<string, unknown> = {};
    for (const key of Object.getOwnPropertyNames(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
      if (!descriptor.enumerable || !('value' in descriptor)) throw new UserError(INVALID_ITEMS);
      if (descriptor.value === undefined) continue;
      Object.defineProperty(out, key, { value: snapshot(descriptor.value, path), enumerable: true, writable: true, configurable: true });
    }
    return out;
  } finally {
    path.delete(value);
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
