import { IdSource } from './wireUtils.js';

type Json = Record<string, unknown>;

export interface CompactReply {
  readonly status: number;
  readonly body: unknown;
}

/**
 * OpenAI's `POST /v1/responses/compact`, as `FakeOpenAIServer` answers it (without using a scripted
 * turn): the user messages of the input are kept, in order, and everything else is folded into one
 * `compaction` item whose `encrypted_content` holds the folded items (base64 JSON), so a test can
 * see what was compacted. With `previous_response_id` instead of `input`, the compaction item
 * stands for that response. Usage counts one input token per input item and one output token.
 */
export class FakeCompactions {
  readonly #ids = new IdSource();

  /** Answers the compact route, or undefined for any other path. */
  handle(method: string, path: string, body: Json): CompactReply | undefined {
    if (path !== '/v1/responses/compact') return undefined;
    if (method !== 'POST') return { status: 404, body: error(`FakeOpenAIServer: no route for ${method} ${path}.`) };
    if (typeof body.model !== 'string' || body.model === '') return { status: 400, body: error("Missing required parameter: 'model'.") };
    const input = Array.isArray(body.input) ? (body.input as unknown[]).filter(isRecord) : undefined;
    const previous = typeof body.previous_response_id === 'string' ? body.previous_response_id : undefined;
    if (input === undefined && previous === undefined) return { status: 400, body: error("One of 'input' or 'previous_response_id' is required.") };
    const kept = (input ?? []).filter(isUserMessage).map((item) => this.#userMessage(item));
    const folded = input === undefined ? { previous_response_id: previous } : input.filter((item) => !isUserMessage(item));
    const compaction = {
      type: 'compaction',
      id: this.#ids.next('cmp'),
      // Keys sorted, so the same items give the same ciphertext whatever order a client wrote them in.
      encrypted_content: Buffer.from(JSON.stringify(sortedKeys(folded))).toString('base64'),
      created_by: 'fake-server',
    };
    const inputTokens = input?.length ?? 1;
    return {
      status: 200,
      body: {
        id: this.#ids.next('resp_compact'),
        object: 'response.compaction',
        created_at: Math.floor(Date.now() / 1000),
        output: [...kept, compaction],
        usage: { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + 1 },
      },
    };
  }

  #userMessage(item: Json): Json {
    const content =
      typeof item.content === 'string'
        ? [{ type: 'input_text', text: item.content }]
        : Array.isArray(item.content)
          ? item.content
          : [];
    return { type: 'message', role: 'user', id: typeof item.id === 'string' ? item.id : this.#ids.next('msg'), status: 'completed', content };
  }
}

/** The items a fake compaction folded, decoded from its `encrypted_content`. */
export function decodeFakeCompaction(encryptedContent: string): unknown {
  return JSON.parse(Buffer.from(encryptedContent, 'base64').toString('utf8')) as unknown;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys(value[key])]),
  );
}

function isUserMessage(item: Json): boolean {
  return (item.type === undefined || item.type === 'message') && item.role === 'user';
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function error(message: string): Json {
  return { error: { message, type: 'invalid_request_error', param: null, code: null } };
}
