import type { ClientOptions } from 'ws';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '@baton/types';

import { OpenAIResponsesModel } from './openaiResponsesModel.js';
import { OpenAIProviderError } from './openaiProviderError.js';
import { clientOf, type OpenAIClientSource } from './internal/clientSource.js';
import { isRecord, type Json } from './internal/json.js';
import { resolveTimeout } from './internal/retryPolicy.js';
import { callWithRetry } from './internal/callWithRetry.js';
import type { ResponsesCreateRequest } from './internal/responses/requestBody.js';
import { checkResponseObject, toModelResponse, unsuccessfulResponseError } from './internal/responses/responseResult.js';
import { responsesStreamEvents } from './internal/responses/streamEvents.js';
import { ResponsesWebSocketConnection, abortedError } from './internal/websocket/responsesWebSocketConnection.js';
import { responsesWebSocketURL, webSocketHeaders } from './internal/websocket/handshake.js';

export interface OpenAIResponsesWSModelOptions {
  /** The WebSocket base URL (default: the client's `baseURL` as `ws(s)://…`); `/responses` is added. */
  websocketBaseURL?: string;
  /** Keep the socket open between requests (default `true`); one request runs on it at a time. */
  reuseConnection?: boolean;
  /** Options for the `ws` client (for example an `agent`, `maxPayload`). */
  websocketOptions?: ClientOptions;
}

const TERMINAL_EVENTS = new Set(['response.completed', 'response.failed', 'response.incomplete', 'response.error', 'error']);

/**
 * The Responses API over a WebSocket (`/v1/responses`), the reference's `OpenAIResponsesWSModel`:
 * each request is one `response.create` frame carrying the same body as the HTTP request, and the
 * answer is the same stream events, one JSON frame each, up to a terminal event. The socket is kept
 * for the next turn (saving a handshake per turn) unless `reuseConnection: false`; a socket that
 * drops before the terminal event ends the call with an `OpenAIProviderError`
 * (`stream_interrupted`) and is closed, as is one whose request is aborted. `close()` closes it.
 */
export class OpenAIResponsesWSModel extends OpenAIResponsesModel {
  readonly #baseURL: string | undefined;
  readonly #reuse: boolean;
  readonly #options: ClientOptions | undefined;
  #connection: { socket: ResponsesWebSocketConnection; identity: string } | undefined;
  #lock: Promise<void> = Promise.resolve();

  constructor(client: OpenAIClientSource, model: string, options: OpenAIResponsesWSModelOptions = {}) {
    super(client, model);
    this.#baseURL = options.websocketBaseURL;
    this.#reuse = options.reuseConnection ?? true;
    this.#options = options.websocketOptions === undefined ? undefined : { ...options.websocketOptions };
  }

  override async getResponse(request: ModelRequest): Promise<ModelResponse> {
    let terminal: Json | undefined;
    for await (const event of this.#events(this._buildResponsesCreateRequest(request, true), request)) {
      if (isRecord(event) && typeof event.type === 'string' && TERMINAL_EVENTS.has(event.type)) terminal = event;
    }
    if (terminal === undefined) throw interrupted();
    const failure = unsuccessfulResponseError(isRecord(terminal.response) ? terminal.response : { status: 'failed' }, undefined);
    if (failure !== undefined) throw failure;
    return toModelResponse(checkResponseObject(terminal.response, undefined), undefined, request.modelSettings.preserveRawUsage);
  }

  override async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const events = this.#events(this._buildResponsesCreateRequest(request, true), request);
    yield* responsesStreamEvents(events, { requestId: undefined, preserveRawUsage: request.modelSettings.preserveRawUsage });
  }

  /** Closes the kept socket. */
  async close(): Promise<void> {
    this.#drop();
  }

  /** The request's events as they arrive, up to and including its terminal event. */
  async *#events(built: ResponsesCreateRequest, request: ModelRequest): AsyncGenerator<unknown> {
    const signal = request.signal;
    const release = await this.#acquire();
    let finished = false;
    const onAbort = () => this.#drop();
    try {
      if (signal?.aborted) throw abortedError();
      const client = await clientOf(this._clientSource);
      const url = responsesWebSocketURL(this.#baseURL ?? client.baseURL, built.transportExtraQuery);
      const headers = webSocketHeaders(client, built.transportExtraHeaders);
      const timeoutMs = resolveTimeout(request.modelSettings);
      // Opening the socket sends nothing, so it is retried per `modelSettings.retry` (each try within `timeoutMs`).
      const socket = await callWithRetry((attemptSignal) => this.#socket(url, headers, attemptSignal, undefined), {
        api: 'responses',
        settings: request.modelSettings,
        signal,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      await socket.send(JSON.stringify({ ...built.requestData, type: 'response.create', stream: true }));
      while (true) {
        const frame = await nextFrame(socket, timeoutMs);
        if (signal?.aborted) throw abortedError();
        if (frame === null) throw interrupted(socket.failure);
        let event: unknown;
        try {
          event = JSON.parse(frame);
        } catch (error) {
          throw new OpenAIProviderError({ reason: 'malformed_stream', api: 'responses', message: 'A Responses websocket frame is not JSON.', cause: error });
        }
        const type = isRecord(event) ? event.type : undefined;
        const terminal = typeof type === 'string' && TERMINAL_EVENTS.has(type);
        if (terminal) finished = true;
        yield event;
        if (terminal) return;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // A socket whose answer did not end cleanly (dropped, aborted, abandoned) is never reused.
      if (!finished || !this.#reuse) this.#drop();
      release();
    }
  }

  async #socket(url: string, headers: Record<string, string>, signal: AbortSignal | undefined, timeoutMs: number | undefined): Promise<ResponsesWebSocketConnection> {
    const identity = JSON.stringify([url, headers]);
    if (this.#connection && this.#connection.identity === identity && this.#connection.socket.isReusable()) return this.#connection.socket;
    this.#drop();
    const socket = await ResponsesWebSocketConnection.connect(url, headers, signal, timeoutMs, this.#options);
    this.#connection = { socket, identity };
    return socket;
  }

  #drop(): void {
    this.#connection?.socket.close();
    this.#connection = undefined;
  }

  /** One request at a time per socket. */
  async #acquire(): Promise<() => void> {
    let release!: () => void;
    const previous = this.#lock;
    this.#lock = new Promise((resolve) => (release = resolve));
    await previous;
    return release;
  }
}

/** The next frame, or a `timeout` error when none comes within `timeoutMs` (between two events, as over HTTP). */
async function nextFrame(socket: ResponsesWebSocketConnection, timeoutMs: number | undefined): Promise<string | null> {
  if (timeoutMs === undefined) return socket.next();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new OpenAIProviderError({ reason: 'timeout', api: 'responses', message: `No Responses websocket event within ${timeoutMs}ms.` })),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([socket.next(), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function interrupted(cause?: unknown): OpenAIProviderError {
  return new OpenAIProviderError({
    reason: 'stream_interrupted',
    api: 'responses',
    message: 'The Responses websocket closed before the terminal response event.',
    ...(cause === undefined ? {} : { cause }),
  });
}

