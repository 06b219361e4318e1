import type OpenAI from 'openai';
import { RequestUsage, UserError, type AgentInputItem, type Session } from '@baton/types';
import { clientOf, lazyClient, type OpenAIClientSource } from './internal/clientSource.js';
import { DEFAULT_OPENAI_MODEL, getDefaultOpenAIClient, getDefaultOpenAIKey } from './defaults.js';
import { OpenAIConversationsSession } from './openaiConversationsSession.js';
import { toResponsesInput } from './internal/responses/inputItems.js';
import { isRecord } from './internal/json.js';
import { MemoryItems } from './internal/compaction/memoryItems.js';
import { compactionCandidates, compactionOutputItems, isCompactionModel, resolveCompactionMode } from './internal/compaction/compactionItems.js';

export type OpenAIResponsesCompactionMode = 'previous_response_id' | 'input' | 'auto';

/** What the decision hook sees. Its arrays are copies: changing them changes nothing. */
export interface OpenAIResponsesCompactionDecisionContext {
  /** The last completed turn's `response.id`, when known. */
  responseId: string | undefined;
  /** The mode this compaction would use. */
  compactionMode: OpenAIResponsesCompactionMode;
  /** The stored items that count toward compaction (all but user messages and compaction items). */
  compactionCandidateItems: AgentInputItem[];
  /** Every stored item. */
  sessionItems: AgentInputItem[];
}

export interface OpenAIResponsesCompactionSessionOptions {
  /** The client for `responses.compact` (default: `setDefaultOpenAIClient()`'s, else one from `OPENAI_API_KEY`). */
  client?: OpenAI;
  /** Where items are stored; compaction replaces its history. Default: in memory. Not an `OpenAIConversationsSession`. */
  underlyingSession?: Session;
  /** The model `responses.compact` uses (a `gpt-*` / `o*` name; default `DEFAULT_OPENAI_MODEL`). */
  model?: string;
  /** `auto` (default), `previous_response_id` (the server-kept chain) or `input` (the stored items). */
  compactionMode?: OpenAIResponsesCompactionMode;
  /** The most items a compaction may replace; more is a `UserError` and the history is kept. */
  maxRollbackItems?: number;
  /** Whether to compact now; default: 10 or more candidate items. */
  shouldTriggerCompaction?: (context: OpenAIResponsesCompactionDecisionContext) => boolean | Promise<boolean>;
}

/** What `runCompaction` takes (the runner passes the last turn's response id and whether it was stored). */
export interface OpenAIResponsesCompactionArgs {
  responseId?: string | undefined;
  compactionMode?: OpenAIResponsesCompactionMode;
  /** Whether the last response was stored on the server (`false` makes `auto` compact the stored items). */
  store?: boolean;
  /** Compact without asking the decision hook. */
  force?: boolean;
}

export interface OpenAIResponsesCompactionResult {
  usage: RequestUsage;
}

/** The latest successful model exchange, which the runner passes to automatic compaction. */
export interface OpenAIResponsesCompactionModelExchange {
  items: AgentInputItem[];
  responseId?: string;
}

const DEFAULT_COMPACTION_THRESHOLD = 10;

/**
 * A session that compacts its history with the Responses API's `responses.compact` endpoint when it
 * grows: after each completed turn the runner calls `runCompaction({ responseId, store })`; when
 * the decision hook says so (by default: 10 or more stored items besides user messages and
 * compaction items), the history is sent (or, with a stored response, only its id), and the
 * stored history is replaced by what the endpoint returns: the user messages and one `compaction`
 * item holding the rest, encrypted. A later turn sends that item back and the model sees the whole
 * conversation. Operations on one session run one after another; a failed replacement restores the
 * previous history.
 */
export class OpenAIResponsesCompactionSession implements Session {
  readonly #client: OpenAIClientSource;
  readonly #session: Session;
  readonly #model: string;
  readonly #mode: OpenAIResponsesCompactionMode;
  readonly #maxRollbackItems: number | undefined;
  readonly #shouldTrigger: (context: OpenAIResponsesCompactionDecisionContext) => boolean | Promise<boolean>;
  #responseId: string | undefined;
  #lastStore: boolean | undefined;
  /** Cached views of the stored history (undefined: read it again). */
  #candidates: AgentInputItem[] | undefined;
  #items: AgentInputItem[] | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  /** Changes on every mutation: an ownership receipt is valid while its generation is current. */
  #generation: object = {};
  readonly #ownership = new WeakMap<object, object>();

  constructor(options: OpenAIResponsesCompactionSessionOptions = {}) {
    const { maxRollbackItems } = options;
    if (maxRollbackItems !== undefined && (!Number.isSafeInteger(maxRollbackItems) || maxRollbackItems <= 0 || !Number.isSafeInteger(maxRollbackItems + 1))) {
      throw new UserError('maxRollbackItems must be a positive integer whose value plus one is a safe integer.');
    }
    if (options.underlyingSession instanceof OpenAIConversationsSession) {
      throw new UserError('OpenAIResponsesCompactionSession does not support OpenAIConversationsSession as an underlying session.');
    }
    const model = (options.model ?? DEFAULT_OPENAI_MODEL).trim();
    if (!isCompactionModel(model)) throw new UserError(`Unsupported model for OpenAI responses compaction: ${JSON.stringify(model)}`);
    this.#maxRollbackItems = maxRollbackItems;
    this.#client = resolveClient(options.client);
    this.#session = options.underlyingSession ?? new MemoryItems();
    this.#model = model;
    this.#mode = options.compactionMode ?? 'auto';
    this.#shouldTrigger = options.shouldTriggerCompaction ?? (({ compactionCandidateItems }) => compactionCandidateItems.length >= DEFAULT_COMPACTION_THRESHOLD);
  }

  /**
   * Compacts when the decision hook (or `force`) says so; resolves to the compact call's usage, or
   * `null` when nothing was compacted. With an `ownership` receipt (automatic compaction by the
   * runner), it compacts only while no other write happened since the receipt was taken, and only
   * the history the last model exchange saw.
   */
  runCompaction(
    args: OpenAIResponsesCompactionArgs = {},
    _runContext?: unknown,
    ownership?: object | null,
    modelExchange?: OpenAIResponsesCompactionModelExchange,
  ): Promise<OpenAIResponsesCompactionResult | null> {
    return this.#serially(async () => {
      let input: AgentInputItem[] | undefined;
      if (ownership !== undefined) {
        if (!this.#owns(ownership) || modelExchange === undefined) return null;
        if ((args.compactionMode ?? this.#mode) === 'previous_response_id' && !modelExchange.responseId) return null;
        const history = await this.#session.getItems(modelExchange.items.length + 1);
        if (history.length === 0 || history.length > modelExchange.items.length) return null;
        input = history;
        this.#items = history;
        this.#candidates = compactionCandidates(history);
        args = { ...args, responseId: modelExchange.responseId };
      }
      const result = await this.#compact(args, input);
      if (result !== null && ownership) this.#ownership.set(ownership, this.#generation);
      return result;
    });
  }

  async #compact(args: OpenAIResponsesCompactionArgs, automaticInput: AgentInputItem[] | undefined): Promise<OpenAIResponsesCompactionResult | null> {
    this.#responseId = args.responseId ?? this.#responseId;
    if (args.store !== undefined) this.#lastStore = args.store;
    const mode = resolveCompactionMode(args.compactionMode ?? this.#mode, this.#responseId, args.store ?? this.#lastStore);
    if (mode === 'previous_response_id' && !this.#responseId) {
      throw new UserError(
        'OpenAIResponsesCompactionSession.runCompaction requires a responseId from the last completed turn when using previous_response_id compaction.',
      );
    }
    if (args.force === true && this.#maxRollbackItems !== undefined) await this.#allItems();
    const { candidates, items } = await this.#history();
    const trigger =
      args.force === true ||
      (await this.#shouldTrigger({
        responseId: this.#responseId,
        compactionMode: mode,
        compactionCandidateItems: structuredClone(candidates),
        sessionItems: structuredClone(items),
      }));
    if (!trigger) return null;
    if (args.force !== true && this.#maxRollbackItems !== undefined) await this.#allItems();
    const body =
      mode === 'previous_response_id'
        ? { model: this.#model, previous_response_id: this.#responseId! }
        : { model: this.#model, input: toResponsesInput(automaticInput ?? items) };
    const client = await clientOf(this.#client);
    const compacted = await client.responses.compact(body as OpenAI.Responses.ResponseCompactParams);
    const output = compactionOutputItems(compacted.output);
    const usage = requestUsage(compacted.usage);
    // Read again after the call, so a rollback does not revive items removed meanwhile.
    const previous = await this.#allItems();
    try {
      await this.#replace(output, previous);
    } catch (error) {
      this.#forget();
      throw error;
    } finally {
      this.#generation = {};
    }
    this.#items = output;
    this.#candidates = compactionCandidates(output);
    return { usage };
  }

  getSessionId(): Promise<string> {
    return this.#session.getSessionId();
  }

  getItems(limit?: number): Promise<AgentInputItem[]> {
    return this.#session.getItems(limit);
  }

  /** The stored items, with a receipt that lets automatic compaction replace exactly this history. */
  getItemsWithCompactionOwnership(_runContext?: unknown): Promise<{ items: AgentInputItem[]; ownership: object }> {
    return this.#serially(async () => {
      const items = await this.#session.getItems();
      const ownership = {};
      this.#ownership.set(ownership, this.#generation);
      return { items, ownership };
    });
  }

  addItems(items: AgentInputItem[]): Promise<void> {
    return this.addItemsWithCompactionOwnership(items, null);
  }

  /** Appends items; a current receipt stays current (the append is the run's own). */
  async addItemsWithCompactionOwnership(items: AgentInputItem[], ownership: object | null, _runContext?: unknown): Promise<void> {
    if (items.length === 0) return;
    await this.#serially(async () => {
      const owned = this.#owns(ownership);
      try {
        await this.#session.addItems(items);
      } catch (error) {
        // The store may have committed before failing: read it again next time.
        this.#forget();
        throw error;
      } finally {
        this.#generation = {};
      }
      if (owned && ownership) this.#ownership.set(ownership, this.#generation);
      if (this.#candidates) this.#candidates = [...this.#candidates, ...compactionCandidates(items)];
      if (this.#items) this.#items = [...this.#items, ...items];
    });
  }

  popItem(): Promise<AgentInputItem | undefined> {
    return this.#serially(async () => {
      try {
        return await this.#session.popItem();
      } finally {
        this.#generation = {};
        this.#responseId = undefined;
        this.#lastStore = undefined;
        this.#forget();
      }
    });
  }

  clearSession(): Promise<void> {
    return this.#serially(async () => {
      try {
        await this.#session.clearSession();
      } catch (error) {
        this.#forget();
        throw error;
      } finally {
        this.#generation = {};
        this.#responseId = undefined;
        this.#lastStore = undefined;
      }
      this.#items = [];
      this.#candidates = [];
    });
  }

  #owns(ownership: object | null | undefined): boolean {
    return ownership !== null && ownership !== undefined && this.#ownership.get(ownership) === this.#generation;
  }

  #forget(): void {
    this.#items = undefined;
    this.#candidates = undefined;
  }

  #serially<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(operation);
    this.#queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  async #history(): Promise<{ candidates: AgentInputItem[]; items: AgentInputItem[] }> {
    if (this.#items === undefined || this.#candidates === undefined) {
      const items = await this.#allItems();
      this.#items = items;
      this.#candidates = compactionCandidates(items);
    }
    return { candidates: [...this.#candidates], items: [...this.#items] };
  }

  /** Every stored item; more than `maxRollbackItems` is a `UserError` (the history is kept). */
  async #allItems(): Promise<AgentInputItem[]> {
    if (this.#maxRollbackItems === undefined) return this.#session.getItems();
    const items = await this.#session.getItems(this.#maxRollbackItems + 1);
    if (items.length > this.#maxRollbackItems) {
      this.#forget();
      throw new UserError('Compaction history exceeds maxRollbackItems; history was retained.');
    }
    return items;
  }

  /** Replaces the stored history; when that fails half way, the previous history is put back. */
  async #replace(output: AgentInputItem[], previous: AgentInputItem[]): Promise<void> {
    try {
      await this.#session.clearSession();
      if (output.length > 0) await this.#session.addItems(output);
    } catch (error) {
      try {
        await this.#session.clearSession();
        if (previous.length > 0) await this.#session.addItems(previous);
      } catch (restoreError) {
        throw new AggregateError([error, restoreError], 'Compaction could not replace the session history, nor restore it.');
      }
      throw error;
    }
  }
}

function resolveClient(client: OpenAI | undefined): OpenAIClientSource {
  if (client !== undefined) {
    if (!isRecord(client) || !isRecord((client as unknown as Record<string, unknown>).responses)) {
      throw new UserError('OpenAIResponsesCompactionSession: `client` must be an OpenAI client (with `responses`).');
    }
    return client;
  }
  const shared = getDefaultOpenAIClient();
  if (shared !== undefined) return shared;
  return lazyClient({ apiKey: getDefaultOpenAIKey() });
}

function requestUsage(usage: unknown): RequestUsage {
  const raw = isRecord(usage) ? usage : {};
  const details = (value: unknown) => (isRecord(value) ? (Object.fromEntries(Object.entries(value).filter(([, n]) => typeof n === 'number')) as Record<string, number>) : {});
  return new RequestUsage({
    inputTokens: typeof raw.input_tokens === 'number' ? raw.input_tokens : 0,
    outputTokens: typeof raw.output_tokens === 'number' ? raw.output_tokens : 0,
    totalTokens: typeof raw.total_tokens === 'number' ? raw.total_tokens : 0,
    inputTokensDetails: details(raw.input_tokens_details),
    outputTokensDetails: details(raw.output_tokens_details),
    endpoint: 'responses.compact',
  });
}
