/**
 * What the fake model server answers, one turn per request, first in first out. A response turn
 * is written in vendor-neutral terms and rendered for whichever endpoint is called (OpenAI's
 * `/v1/responses` or `/v1/chat/completions`, Anthropic's `/v1/messages`, Gemini's
 * `/v1beta/models/{model}:generateContent` or `:streamGenerateContent`), as JSON or as SSE when the
 * request asks to stream.
 */

/** One piece of model output. */
export type FakeOutput =
  | { readonly type: 'message'; readonly text: string }
  | { readonly type: 'refusal'; readonly refusal: string }
  | { readonly type: 'function_call'; readonly name: string; readonly arguments: string; readonly callId?: string }
  /**
   * Reasoning: a Responses summary, a Chat Completions `reasoning_content`, an Anthropic `thinking`
   * block or a Gemini `thought` part. `signature` is Anthropic's `signature` and Gemini's
   * `thoughtSignature` (default: a generated `sig_<n>`); OpenAI ignores it.
   */
  | { readonly type: 'reasoning'; readonly summary: string; readonly signature?: string }
  /** A Responses API output item sent as written (a hosted tool's call, say); the other APIs have none. */
  | { readonly type: 'item'; readonly item: Readonly<Record<string, unknown>> };

/**
 * Token counts in OpenAI's terms (default 10 in, 5 out): `inputTokens` includes `cachedTokens`,
 * `outputTokens` includes `reasoningTokens`. Each API gets them in its own terms (Anthropic's
 * `input_tokens` excludes cache reads; Gemini's `candidatesTokenCount` excludes thoughts), so every
 * client reports the same totals.
 */
export interface FakeUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cachedTokens?: number;
  readonly reasoningTokens?: number;
}

/** How a streamed answer misbehaves or paces itself. Event numbers count from 0. */
export interface FakeStreamOptions {
  /** Pause between two events, in milliseconds. */
  readonly eventDelayMs?: number;
  /** Destroy the connection after this many events (no final event, no clean end). */
  readonly cutAfterEvents?: number;
  /** End the response cleanly after this many events, before the final event. */
  readonly endAfterEvents?: number;
  /** Send this many events, then keep the connection open without sending anything more. */
  readonly hangAfterEvents?: number;
  /** Write a frame whose data is not JSON before the event with this number. */
  readonly malformedFrameAt?: number;
  /** Extra raw events (for example an unknown event type) inserted before the event with number `at`. */
  readonly extraEvents?: ReadonlyArray<{ readonly at: number; readonly event: Record<string, unknown> }>;
  /** How many pieces each text or arguments string is split into (default 2). */
  readonly deltaChunks?: number;
}

export interface FakeResponseTurn {
  readonly type: 'response';
  readonly output: readonly FakeOutput[];
  /**
   * `failed` and `incomplete` end a Responses answer with that status (`response.failed` /
   * `response.incomplete` when streamed). Chat Completions renders `incomplete` as
   * `finish_reason: 'length'` and `failed` as a 500 error. Anthropic: `stop_reason: 'max_tokens'`;
   * `failed` is a 500 `api_error`, or when streaming an `error` event after the output (in place of
   * `message_delta` / `message_stop`). Gemini: `finishReason: 'MAX_TOKENS'`; `failed` is a 500
   * `INTERNAL` error, or when streaming a final `{ error }` chunk after the output.
   */
  readonly status?: 'completed' | 'failed' | 'incomplete';
  readonly error?: { readonly code: string; readonly message: string };
  readonly usage?: FakeUsage;
  /** Wait this long before sending the response headers. */
  readonly delayMs?: number;
  readonly stream?: FakeStreamOptions;
  /** Extra response headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface FakeErrorTurn {
  readonly type: 'error';
  readonly status: number;
  /**
   * An object is sent as JSON; a string is sent verbatim (see `contentType`). Default: the called
   * API's error body for the status (OpenAI `{ error: { message, type, code, param } }`, Anthropic
   * `{ type: 'error', error: { type, message } }`, Gemini `{ error: { code, message, status } }`).
   */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly delayMs?: number;
}

/** A body sent exactly as given (for example a JSON response with no choices, or hand-written SSE). */
export interface FakeRawTurn {
  readonly type: 'raw';
  readonly status?: number;
  readonly body: string;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly delayMs?: number;
}

/** A request body as the client sent it (parsed JSON; `{ raw }` when it was not JSON). */
// The body is a vendor's wire format, read field by field in tests, hence the loose type.
export type FakeRequestBody = Record<string, any>;

/** Decides the answer from the request (its parsed body and path). */
export interface FakeResponderTurn {
  readonly type: 'responder';
  readonly respond: (request: { readonly path: string; readonly body: FakeRequestBody }) => FakeTurn;
}

export type FakeTurn = FakeResponseTurn | FakeErrorTurn | FakeRawTurn | FakeResponderTurn;

type ResponseOptions = Omit<FakeResponseTurn, 'type' | 'output'>;

/** A response with output items. */
export function fakeResponse(output: readonly FakeOutput[], options: ResponseOptions = {}): FakeResponseTurn {
  return { type: 'response', output, ...options };
}

/** An assistant message (optionally after a reasoning summary). */
export function fakeText(text: string, options: ResponseOptions & { reasoning?: string } = {}): FakeResponseTurn {
  const { reasoning, ...rest } = options;
  const output: FakeOutput[] = reasoning === undefined ? [] : [{ type: 'reasoning', summary: reasoning }];
  output.push({ type: 'message', text });
  return fakeResponse(output, rest);
}

/**
 * One or more function calls; object arguments are JSON-encoded, strings are sent as they are.
 * Anthropic and Gemini send arguments as a parsed object (`input` / `args`); arguments that are not
 * valid JSON are sent there as the raw string instead (and streamed raw through Anthropic's
 * `input_json_delta`), so the client sees them as they were scripted.
 */
export function fakeToolCalls(
  calls: ReadonlyArray<{ name: string; arguments?: string | Record<string, unknown>; callId?: string }>,
  options: ResponseOptions & { text?: string } = {},
): FakeResponseTurn {
  const { text, ...rest } = options;
  const output: FakeOutput[] = text === undefined ? [] : [{ type: 'message', text }];
  for (const call of calls) {
    const args = call.arguments ?? {};
    output.push({
      type: 'function_call',
      name: call.name,
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
      ...(call.callId === undefined ? {} : { callId: call.callId }),
    });
  }
  return fakeResponse(output, rest);
}

/** A response with Responses API output items as written (hosted tool calls: `web_search_call`, `mcp_approval_request`, ...). */
export function fakeItems(items: ReadonlyArray<Record<string, unknown>>, options: ResponseOptions & { text?: string } = {}): FakeResponseTurn {
  const { text, ...rest } = options;
  return fakeResponse([...items.map((item) => ({ type: 'item' as const, item })), ...(text !== undefined ? [{ type: 'message' as const, text }] : [])], rest);
}

/**
 * A refusal. OpenAI: a `refusal` content part. Anthropic: `stop_reason: 'refusal'` with the text as
 * a `text` block. Gemini: `finishReason: 'SAFETY'` (with a blocked safety rating) and the text as a
 * text part.
 */
export function fakeRefusal(refusal: string, options: ResponseOptions = {}): FakeResponseTurn {
  return fakeResponse([{ type: 'refusal', refusal }], options);
}

/** An HTTP error. Without a body the server sends the called API's error body for the status (see `FakeErrorTurn.body`). */
export function fakeError(status: number, body?: unknown, options: Omit<FakeErrorTurn, 'type' | 'status' | 'body'> = {}): FakeErrorTurn {
  return { type: 'error', status, ...(body === undefined ? {} : { body }), ...options };
}

/** A body sent verbatim. */
export function fakeRaw(body: string, options: Omit<FakeRawTurn, 'type' | 'body'> = {}): FakeRawTurn {
  return { type: 'raw', body, ...options };
}

export function fakeResponder(respond: FakeResponderTurn['respond']): FakeResponderTurn {
  return { type: 'responder', respond };
}
