import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { matchRoute, RENDERERS, type ApiRenderer, type FakeApi, type FakeRoute } from './apis.js';
import { closedWithin, writeSse, type StreamEnding } from './sseWriter.js';
import type { FakeErrorTurn, FakeRawTurn, FakeRequestBody, FakeResponseTurn, FakeTurn } from './turns.js';
import { IdSource } from './wireUtils.js';
import { FakeConversations } from './conversationsApi.js';
import { FakeCompactions } from './compactApi.js';
import { FakeResponsesSocket } from './responsesSocket.js';

/** How the server's answer to a request ended. */
export type FakeRequestOutcome = 'pending' | 'completed' | 'client_closed' | 'cut' | 'ended_early';

// The Responses WebSocket mode: `ws(s)://…/v1/responses`, see `FakeResponsesSocket`.

export interface RecordedRequest {
  readonly index: number;
  readonly method: string;
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: FakeRequestBody;
  /** The model API the path belongs to (undefined for the Conversations API and unknown routes). */
  readonly api: FakeApi | undefined;
  /** The model asked for: the body's `model`, or for Gemini the one in the path. */
  readonly model: string | undefined;
  /** The request asked for a streamed answer (`stream: true` in the body, or Gemini's `:streamGenerateContent` route). */
  readonly stream: boolean;
  /** How the request came: over HTTP, or as a `response.create` frame on a Responses WebSocket. */
  readonly transport: 'http' | 'websocket';
  /** `client_closed` means the client closed the connection before the answer was complete. */
  readonly outcome: FakeRequestOutcome;
}

export interface FakeOpenAIServerOptions {
  readonly turns?: readonly FakeTurn[];
}

interface Entry {
  record: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] };
  settled: Promise<void>;
}

/**
 * A local model server for tests and offline demos that speaks several vendors' wire formats,
 * answering each request with the next scripted turn rendered for the API it called, as JSON or SSE:
 * OpenAI's `POST /v1/responses` and `POST /v1/chat/completions` (and the Conversations API,
 * `/v1/conversations...`, kept in memory, and `POST /v1/responses/compact`, see `FakeCompactions`), Anthropic's `POST /v1/messages`, and Gemini's
 * `POST /v1beta/models/{model}:generateContent` / `:streamGenerateContent?alt=sse` (also under `/v1`).
 * It listens on 127.0.0.1 on a random port and records every request (body, headers, and whether
 * the client closed the connection early). `FakeModelServer` is the same class.
 */
export class FakeOpenAIServer {
  readonly #server: Server;
  readonly #turns: FakeTurn[];
  readonly #entries: Entry[] = [];
  readonly #ids = new IdSource();
  readonly #conversations = new FakeConversations();
  readonly #compactions = new FakeCompactions();
  readonly #socket: FakeResponsesSocket;
  #port = 0;

  private constructor(turns: readonly FakeTurn[]) {
    this.#turns = [...turns];
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        // A responder that throws is a bug in the test: answer with it instead of hanging (and ask not to retry).
        if (res.headersSent) return void res.destroy();
        sendJson(res, 500, RENDERERS['openai-responses'].errorBody(500, failedTurnMessage(error), 'fake_server_error'), { 'x-should-retry': 'false' });
      });
    });
    this.#socket = new FakeResponsesSocket({
      nextTurn: (path, body) => this.#nextTurn(path, body),
      record: (upgrade, body) => this.#recordSocketRequest(upgrade, body),
      events: (turn, body) => RENDERERS['openai-responses'].events(turn, { body, model: typeof body.model === 'string' ? body.model : 'fake-model' }, this.#ids),
    });
    this.#server.on('upgrade', (request, socket, head) => void this.#socket.upgrade(request, socket, head).catch(() => socket.destroy()));
  }

  #recordSocketRequest(upgrade: IncomingMessage, body: FakeRequestBody): (outcome: FakeRequestOutcome) => void {
    const record: Entry['record'] = {
      index: this.#entries.length,
      method: 'WEBSOCKET',
      path: '/v1/responses',
      headers: headersOf(upgrade),
      body,
      api: 'openai-responses',
      model: typeof body.model === 'string' ? body.model : undefined,
      stream: true,
      transport: 'websocket',
      outcome: 'pending',
    };
    let settle!: () => void;
    this.#entries.push({ record, settled: new Promise((resolve) => (settle = resolve)) });
    return (outcome) => {
      if (record.outcome === 'pending') record.outcome = outcome;
      settle();
    };
  }

  static async start(options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
    const server = new FakeOpenAIServer(options.turns ?? []);
    await new Promise<void>((resolve, reject) => {
      server.#server.once('error', reject);
      server.#server.listen(0, '127.0.0.1', () => resolve());
    });
    server.#port = (server.#server.address() as AddressInfo).port;
    return server;
  }

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** The base URL to give an OpenAI client: `http://127.0.0.1:<port>/v1`. */
  get baseURL(): string {
    return `${this.url}/v1`;
  }

  /** The Responses WebSocket URL: `ws://127.0.0.1:<port>/v1/responses`. */
  get responsesWebSocketURL(): string {
    return `ws://127.0.0.1:${this.#port}/v1/responses`;
  }

  /** Responses WebSocket connections accepted so far. */
  get upgrades(): number {
    return this.#socket.upgrades;
  }

  /** Responses WebSocket connections open now (a client that left none open sees 0). */
  get openSockets(): number {
    return this.#socket.open;
  }

  /** The base URL to give an Anthropic client (`@ai-sdk/anthropic`'s `baseURL`): `http://127.0.0.1:<port>/v1`. */
  get anthropicBaseURL(): string {
    return `${this.url}/v1`;
  }

  /** The base URL to give a Gemini client (`@ai-sdk/google`'s `baseURL`): `http://127.0.0.1:<port>/v1beta`. */
  get googleBaseURL(): string {
    return `${this.url}/v1beta`;
  }

  get requests(): readonly RecordedRequest[] {
    return this.#entries.map((entry) => ({ ...entry.record }));
  }

  get remainingTurns(): number {
    return this.#turns.length;
  }

  enqueue(...turns: FakeTurn[]): void {
    this.#turns.push(...turns);
  }

  /** Resolves with the request once its answer is complete or its connection closed. */
  async settled(index: number): Promise<RecordedRequest> {
    const entry = this.#entries[index];
    if (entry === undefined) throw new Error(`FakeOpenAIServer: no request #${index} (received ${this.#entries.length}).`);
    await entry.settled;
    return { ...entry.record };
  }

  /** Throws when scripted turns were not used. */
  assertComplete(): void {
    if (this.#turns.length > 0) throw new Error(`FakeOpenAIServer: ${this.#turns.length} scripted turn(s) were never requested.`);
  }

  /** Stops listening and closes every open connection (including streams left hanging). */
  async close(): Promise<void> {
    this.#socket.close();
    const closing = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closing;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => {}); // a client that went away is recorded, not thrown
    const raw = await readBody(req);
    let body: FakeRequestBody = {};
    let isJson = true;
    try {
      if (raw !== '') body = JSON.parse(raw) as FakeRequestBody;
    } catch {
      isJson = false;
      body = { raw };
    }
    const index = this.#entries.length;
    const [path = '/', search = ''] = (req.url ?? '/').split('?');
    const query = new URLSearchParams(search);
    const route = matchRoute(path, query);
    const record: Entry['record'] = {
      index,
      method: req.method ?? 'GET',
      path,
      headers: headersOf(req),
      body,
      api: route?.api,
      model: route?.model ?? (typeof body.model === 'string' ? body.model : undefined),
      stream: route?.streamRoute ?? body.stream === true,
      transport: 'http',
      outcome: 'pending',
    };
    let settle!: () => void;
    this.#entries.push({ record, settled: new Promise((resolve) => (settle = resolve)) });
    const mark = (outcome: FakeRequestOutcome) => {
      if (record.outcome === 'pending') record.outcome = outcome;
    };
    res.once('close', () => {
      mark(res.writableFinished ? 'completed' : 'client_closed');
      settle();
    });
    const requestId = `req_fake_${index + 1}`;
    const conversations = isJson ? this.#conversations.handle(record.method, path, query, body as Record<string, unknown>) : undefined;
    if (conversations) return sendJson(res, conversations.status, conversations.body, { 'x-request-id': requestId });
    const compacted = isJson ? this.#compactions.handle(record.method, path, body as Record<string, unknown>) : undefined;
    if (compacted) return sendJson(res, compacted.status, compacted.body, { 'x-request-id': requestId });
    const renderer = RENDERERS[route?.api ?? 'openai-responses'];
    const idHeaders: Record<string, string> = renderer.requestIdHeader === undefined ? {} : { [renderer.requestIdHeader]: requestId };
    const fail = (status: number, message: string, code: string | null) => sendJson(res, status, renderer.errorBody(status, message, code), idHeaders);
    if (req.method !== 'POST' || route === undefined) return fail(404, `FakeOpenAIServer: no route for ${req.method} ${path}.`, 'not_found');
    if (!isJson) return fail(400, 'FakeOpenAIServer: the request body is not JSON.', null);
    try {
      const turn = this.#nextTurn(path, body);
      if (turn === undefined) return fail(400, `FakeOpenAIServer: no scripted turn left for POST ${path} (request #${index}).`, 'no_scripted_turn');
      if (turn.delayMs !== undefined && (await closedWithin(res, turn.delayMs))) return;
      const headers = { ...idHeaders, ...turn.headers };
      if (turn.type === 'error') return sendError(res, turn, renderer, headers);
      if (turn.type === 'raw') return sendRaw(res, turn, headers);
      const request = { body, model: record.model ?? 'fake-model' };
      await this.#sendResponse(res, turn, route, renderer, request, record.stream, headers, mark);
    } catch (error) {
      // A responder that throws (or a turn the API cannot render) is a bug in the test: answer with it instead of hanging (and ask not to retry).
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, renderer.errorBody(500, failedTurnMessage(error), 'fake_server_error'), { ...idHeaders, 'x-should-retry': 'false' });
    }
  }

  #nextTurn(path: string, body: FakeRequestBody): Exclude<FakeTurn, { type: 'responder' }> | undefined {
    let turn = this.#turns.shift();
    while (turn?.type === 'responder') turn = turn.respond({ path, body });
    return turn;
  }

  async #sendResponse(
    res: ServerResponse,
    turn: FakeResponseTurn,
    route: FakeRoute,
    renderer: ApiRenderer,
    request: { body: FakeRequestBody; model: string },
    stream: boolean,
    headers: Record<string, string>,
    mark: (ending: StreamEnding) => void,
  ): Promise<void> {
    const failure = renderer.failure(turn, stream);
    if (failure !== undefined) return sendJson(res, failure.status, failure.body, headers);
    if (!stream) return sendJson(res, 200, renderer.json(turn, request, this.#ids), headers);
    const events = renderer.events(turn, request, this.#ids);
    // Gemini's streaming route without `?alt=sse` answers the chunks as one JSON array.
    if (route.streamRoute === true && route.sse !== true) return sendJson(res, 200, events, headers);
    await writeSse(res, events, turn.stream ?? {}, renderer.flavour, headers, mark);
  }
}

/** Starts a fake model server (OpenAI, Anthropic and Gemini routes) on a random loopback port. */
export function startFakeOpenAIServer(options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  return FakeOpenAIServer.start(options);
}

function failedTurnMessage(error: unknown): string {
  return `FakeOpenAIServer: the scripted turn failed: ${error instanceof Error ? error.message : String(error)}`;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, turn: FakeErrorTurn, renderer: ApiRenderer, headers: Record<string, string>): void {
  if (typeof turn.body === 'string') {
    res.writeHead(turn.status, { 'content-type': turn.contentType ?? 'text/plain', ...headers });
    res.end(turn.body);
    return;
  }
  const body = turn.body ?? renderer.errorBody(turn.status, `Fake error with status ${turn.status}.`, `fake_${turn.status}`);
  sendJson(res, turn.status, body, headers);
}

function sendRaw(res: ServerResponse, turn: FakeRawTurn, headers: Record<string, string>): void {
  res.writeHead(turn.status ?? 200, { 'content-type': turn.contentType ?? 'application/json', ...headers });
  res.end(turn.body);
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** `FakeOpenAIServer` under a vendor-neutral name (the same class: it also speaks Anthropic and Gemini). */
export const FakeModelServer = FakeOpenAIServer;
/** An instance of `FakeModelServer` (the same as `FakeOpenAIServer`). */
export type FakeModelServer = FakeOpenAIServer;
/** Options of `FakeModelServer.start` (the same as `FakeOpenAIServerOptions`). */
export type FakeModelServerOptions = FakeOpenAIServerOptions;

/** `startFakeOpenAIServer` under a vendor-neutral name. */
export function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  return FakeOpenAIServer.start(options);
}
