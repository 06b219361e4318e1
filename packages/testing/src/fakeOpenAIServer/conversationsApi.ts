import { IdSource } from './wireUtils.js';

type Json = Record<string, unknown>;

export interface ConversationsReply {
  readonly status: number;
  readonly body: unknown;
}

const ID_PREFIX: Record<string, string> = { message: 'msg', function_call: 'fc', function_call_output: 'fco', reasoning: 'rs' };

/**
 * OpenAI's Conversations API, in memory, as `FakeOpenAIServer` answers it: create, read and delete
 * a conversation; list (with `order`, `limit`, `after`), add and delete its items. Items are stored
 * as the API stores them: with an id, a status, and a message's text content as `input_text` /
 * `output_text` parts.
 */
export class FakeConversations {
  readonly #conversations = new Map<string, { created_at: number; items: Json[] }>();
  readonly #ids = new IdSource();

  /** Answers `method path` (under `/v1/conversations`), or undefined when it is not a Conversations route. */
  handle(method: string, path: string, query: URLSearchParams, body: Json): ConversationsReply | undefined {
    const parts = path.split('/').filter(Boolean); // v1, conversations, id?, items?, itemId?
    if (parts[0] !== 'v1' || parts[1] !== 'conversations') return undefined;
    const [, , id, sub, itemId] = parts;
    if (id === undefined) return method === 'POST' ? this.#create(body) : notFound(method, path);
    const conversation = this.#conversations.get(id);
    if (!conversation) return { status: 404, body: error(`Conversation with id '${id}' not found.`) };
    if (sub === undefined) {
      if (method === 'GET') return { status: 200, body: conversationObject(id, conversation.created_at) };
      if (method === 'DELETE') {
        this.#conversations.delete(id);
        return { status: 200, body: { id, object: 'conversation.deleted', deleted: true } };
      }
      return notFound(method, path);
    }
    if (sub !== 'items') return notFound(method, path);
    if (itemId === undefined) {
      if (method === 'GET') return { status: 200, body: listPage(conversation.items, query) };
      if (method === 'POST') {
        const added = this.#store(body.items);
        conversation.items.push(...added);
        return { status: 200, body: { object: 'list', data: added, first_id: added[0]?.id ?? null, last_id: added.at(-1)?.id ?? null, has_more: false } };
      }
      return notFound(method, path);
    }
    if (method === 'DELETE') {
      const index = conversation.items.findIndex((item) => item.id === itemId);
      if (index === -1) return { status: 404, body: error(`Item with id '${itemId}' not found.`) };
      conversation.items.splice(index, 1);
      return { status: 200, body: conversationObject(id, conversation.created_at) };
    }
    if (method === 'GET') {
      const item = conversation.items.find((entry) => entry.id === itemId);
      return item ? { status: 200, body: item } : { status: 404, body: error(`Item with id '${itemId}' not found.`) };
    }
    return notFound(method, path);
  }

  #create(body: Json): ConversationsReply {
    const id = this.#ids.next('conv');
    const created_at = Math.floor(Date.now() / 1000);
    this.#conversations.set(id, { created_at, items: this.#store(body.items) });
    return { status: 200, body: conversationObject(id, created_at) };
  }

  #store(items: unknown): Json[] {
    if (!Array.isArray(items)) return [];
    return items.map((raw) => {
      const item = { ...(raw as Json) };
      const type = typeof item.type === 'string' ? item.type : 'message';
      item.type = type;
      if (typeof item.id !== 'string') item.id = this.#ids.next(ID_PREFIX[type] ?? 'item');
      if (type === 'message') {
        item.status ??= 'completed';
        if (typeof item.content === 'string') item.content = [{ type: item.role === 'assistant' ? 'output_text' : 'input_text', text: item.content }];
      }
      if (type === 'function_call' || type === 'function_call_output') item.status ??= 'completed';
      return item;
    });
  }
}

function conversationObject(id: string, created_at: number): Json {
  return { id, object: 'conversation', created_at, metadata: {} };
}

/** One page of items: `order` (default desc), `limit` (default 20), after the item `after`. */
function listPage(items: readonly Json[], query: URLSearchParams): Json {
  const ordered = query.get('order') === 'asc' ? [...items] : [...items].reverse();
  const after = query.get('after');
  const start = after === null ? 0 : ordered.findIndex((item) => item.id === after) + 1;
  const limit = Math.max(1, Math.min(100, Number(query.get('limit') ?? 20) || 20));
  const data = ordered.slice(start, start + limit);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < ordered.length };
}

function error(message: string): Json {
  return { error: { message, type: 'invalid_request_error', param: null, code: null } };
}

function notFound(method: string, path: string): ConversationsReply {
  return { status: 404, body: error(`FakeOpenAIServer: no route for ${method} ${path}.`) };
}
