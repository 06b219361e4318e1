import type OpenAI from 'openai';
import { clientOf, lazyClient, type OpenAIClientSource } from './internal/clientSource.js';
import { UserError, type AgentInputItem, type Session } from '@baton/types';
import { getDefaultOpenAIClient, getDefaultOpenAIKey } from './defaults.js';
import { fromConversationItem } from './internal/conversationItems.js';
import { isRecord, type Json } from './internal/json.js';
import { toResponsesInput } from './internal/responses/inputItems.js';

export interface OpenAIConversationsSessionOptions {
  /** An existing conversation; without one, a conversation is created on first use. */
  conversationId?: string;
  client?: OpenAI;
  apiKey?: string;
  baseURL?: string;
  organization?: string;
  project?: string;
}

/** Creates an empty conversation and returns its id. */
export async function startOpenAIConversationsSession(client?: OpenAI): Promise<string> {
  const conversation = await (await clientOf(resolveClient(client === undefined ? {} : { client }))).conversations.create({ items: [] });
  return conversation.id;
}

/** Items the API keeps its own id for (everything else gets a new one when stored). */
const KEEPS_ID = new Set(['reasoning']);

/**
 * A session kept by OpenAI's Conversations API: the history lives in an OpenAI conversation
 * (created on first use unless `conversationId` is given), so any process with the id continues it.
 * Operations on one session object run one after another, so concurrent `addItems` calls keep
 * their order and a conversation is created once.
 */
export class OpenAIConversationsSession implements Session {
  readonly #client: OpenAIClientSource;
  #conversationId: string | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: OpenAIConversationsSessionOptions = {}) {
    if (typeof options !== 'object' || options === null) throw new UserError('OpenAIConversationsSession: options must be an object.');
    if (options.conversationId !== undefined && (typeof options.conversationId !== 'string' || options.conversationId === '')) {
      throw new UserError('OpenAIConversationsSession: `conversationId` must be a non-empty string.');
    }
    this.#client = resolveClient(options);
    this.#conversationId = options.conversationId;
  }

  #openai(): Promise<OpenAI> {
    return clientOf(this.#client);
  }

  /** The conversation id, once there is one. */
  get sessionId(): string | undefined {
    return this.#conversationId;
  }

  /** The conversation id, creating the conversation when there is none yet. */
  getSessionId(): Promise<string> {
    return this.#serially(() => this.#ensureConversation());
  }

  /** The history, oldest first; with `limit`, only the latest `limit` items. */
  getItems(limit?: number): Promise<AgentInputItem[]> {
    return this.#serially(async () => this.#readItems(await this.#ensureConversation(), limit));
  }

  addItems(items: AgentInputItem[]): Promise<void> {
    return this.#serially(async () => {
      const input = forConversation(items);
      if (input.length === 0) return;
      await (await this.#openai()).conversations.items.create(await this.#ensureConversation(), { items: input as never });
    });
  }

  /** An assistant message goes back to the model without the conversation's id and provider data (the reference's rule). */
  prepareHistoryItemForModelInput(item: AgentInputItem): AgentInputItem {
    if (item.type !== 'message' && item.type !== undefined) return item;
    if (item.role !== 'assistant') return item;
    const { id: _id, providerData: _providerData, ...replayed } = item;
    return replayed;
  }

  /** Removes and returns the latest item. */
  popItem(): Promise<AgentInputItem | undefined> {
    return this.#serially(async () => {
      const conversationId = await this.#ensureConversation();
      const [latest] = await this.#readItems(conversationId, 1);
      if (latest?.id !== undefined) await (await this.#openai()).conversations.items.delete(latest.id, { conversation_id: conversationId });
      return latest;
    });
  }

  /** Deletes the conversation; the next use starts a new one. */
  clearSession(): Promise<void> {
    return this.#serially(async () => {
      if (this.#conversationId === undefined) return;
      await (await this.#openai()).conversations.delete(this.#conversationId);
      this.#conversationId = undefined;
    });
  }

  async #ensureConversation(): Promise<string> {
    this.#conversationId ??= await startOpenAIConversationsSession(await this.#openai());
    return this.#conversationId;
  }

  async #readItems(conversationId: string, limit: number | undefined): Promise<AgentInputItem[]> {
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new UserError(`OpenAIConversationsSession.getItems: \`limit\` must be a whole number >= 0, got ${String(limit)}.`);
    if (limit === 0) return [];
    if (limit === undefined) {
      const items: AgentInputItem[] = [];
      for await (const item of (await this.#openai()).conversations.items.list(conversationId, { order: 'asc' })) items.push(...fromConversationItem(item as unknown as Json));
      return items;
    }
    // Newest first, then put back in order: only as many pages as the limit needs.
    const groups: AgentInputItem[][] = [];
    let count = 0;
    for await (const item of (await this.#openai()).conversations.items.list(conversationId, { order: 'desc', limit: Math.min(limit, 100) })) {
      const group = fromConversationItem(item as unknown as Json);
      if (group.length === 0) continue;
      groups.push(group);
      count += group.length;
      if (count >= limit) break;
    }
    return groups.reverse().flat().slice(-limit);
  }

  #serially<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(operation);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}

/** Items as the Conversations API takes them: Responses input, without ids it would refuse (it assigns its own). */
function forConversation(items: AgentInputItem[]): Json[] {
  return toResponsesInput(items).flatMap((item) => {
    if (item.type === 'reasoning' && typeof item.id !== 'string' && typeof item.encrypted_content !== 'string') return [];
    const { provider_data: _providerData, ...rest } = item as Json & { provider_data?: unknown };
    if (!(typeof rest.type === 'string' && KEEPS_ID.has(rest.type))) delete rest.id;
    return [rest];
  });
}

/** The session's client: checked now, made (and the `openai` module loaded) on first use. */
function resolveClient(options: OpenAIConversationsSessionOptions): OpenAIClientSource {
  if (options.client !== undefined) {
    if (!isRecord(options.client) || !isRecord((options.client as unknown as Json).conversations)) {
      throw new UserError('OpenAIConversationsSession: `client` must be an OpenAI client (with `conversations`).');
    }
    return options.client;
  }
  const shared = getDefaultOpenAIClient();
  if (shared !== undefined && options.apiKey === undefined && options.baseURL === undefined) return shared;
  const apiKey = options.apiKey ?? getDefaultOpenAIKey();
  if (apiKey === undefined) throw new UserError('OpenAIConversationsSession: no OpenAI API key (set OPENAI_API_KEY, call setDefaultOpenAIKey(), or pass apiKey or client).');
  // Options left out are left to the client, which reads OPENAI_BASE_URL, OPENAI_ORG_ID and
  // OPENAI_PROJECT_ID then (as the models' clients do).
  return lazyClient({
    apiKey,
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    ...(options.organization !== undefined ? { organization: options.organization } : {}),
    ...(options.project !== undefined ? { project: options.project } : {}),
  });
}
