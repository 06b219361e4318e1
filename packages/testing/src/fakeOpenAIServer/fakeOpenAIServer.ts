import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatChunks, chatCompletion } from './chatCompletionsWire.js';
import { responsesEvents, responsesObject } from './responsesWire.js';
import { closedWithin, writeSse, type StreamEnding } from './sseWriter.js';
import type { FakeErrorTurn, FakeRawTurn, FakeRequestBody, FakeResponseTurn, FakeTurn } from './turns.js';
import { IdSource } from './wireUtils.js';
import { FakeConversations } from './conversationsApi.js';


/** How the server's answer to a request ended. */
export type FakeRequestOutcome = 'pending' | 'completed' | 'client_closed' | 'cut' | 'ended_early';

export interface RecordedRequest {
  readonly index: number;
  readonly method: string;
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: FakeRequestBody;
  /** The request asked for a streamed answer (`stream: true`). */
  readonly stream: boolean;
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
 * A local OpenAI-compatible HTTP server for tests and offline demos: `POST /v1/responses` and
 * `POST /v1/chat/completions`, JSON or SSE, answering each request with the next scripted turn;
 * and the Conversations API (`/v1/conversations...`), kept in memory.
 * It listens on 127.0.0.1 on a random port and records every request (body, headers, and whether
 * the client closed the connection early).
 */
export class FakeOpenAIServer {
  readonly #server: Server;
  readonly #turns: FakeTurn[];
  readonly #entries: Entry[] = [];
  readonly #ids = new IdSource();
  readonly #conversations = new FakeConversations();
  #port = 0;

  private constructor(turns: readonly FakeTurn[]) {
    this.#turns = [...turns];
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        // A responder that throws is a bug in the test: answer with it instead of hanging (and ask not to retry).
        if (res.headersSent) return void res.destroy();
        const message = `FakeOpenAIServer: the scripted turn failed: ${error instanceof Error ? error.message : String(error)}`;
        sendJson(res, 500, errorBody(message, 'server_error', 'fake_server_error'), { 'x-should-retry': 'false' });
      });
    });
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
    const record: Entry['record'] = {
      index,
      method: req.method ?? 'GET',
      path,
      headers: headersOf(req),
      body,
      stream: body.stream === true,
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
    const conversations = isJson ? this.#conversations.handle(record.method, path, new URLSearchParams(search), body as Record<string, unknown>) : undefined;
    if (conversations) return sendJson(res, conversations.status, conversations.body, { 'x-request-id': requestId });
    const api = path === '/v1/responses' ? 'responses' : path === '/v1/chat/completions' ? 'chat' : undefined;
    if (req.method !== 'POST' || api === undefined) {
      sendJson(res, 404, errorBody(`FakeOpenAIServer: no route for ${req.method} ${path}.`, 'invalid_request_error', 'not_found'), { 'x-request-id': requestId });
      return;
    }
    if (!isJson) {
      sendJson(res, 400, errorBody('FakeOpenAIServer: the request body is not JSON.', 'invalid_request_error', null), { 'x-request-id': requestId });
      return;
    }
    const turn = this.#nextTurn(path, body);
    if (turn === undefined) {
      const message = `FakeOpenAIServer: no scripted turn left for POST ${path} (request #${index}).`;
      sendJson(res, 400, errorBody(message, 'invalid_request_error', 'no_scripted_turn'), { 'x-request-id': requestId });
      return;
    }
    if (turn.delayMs !== undefined && (await closedWithin(res, turn.delayMs))) return;
    const headers = { 'x-request-id': requestId, ...turn.headers };
    if (turn.type === 'error') return sendError(res, turn, headers);
    if (turn.type === 'raw') return sendRaw(res, turn, headers);
    await this.#sendResponse(res, turn, api, body, headers, mark);
  }

  #nextTurn(path: string, body: FakeRequestBody): Exclude<FakeTurn, { type: 'responder' }> | undefined {
    let turn = this.#turns.shift();
    while (turn?.type === 'responder') turn = turn.respond({ path, body });
    return turn;
  }

  async #sendResponse(
    res: ServerResponse,
    turn: FakeResponseTurn,
    api: 'responses' | 'chat',
    body: FakeRequestBody,
    headers: Record<string, string>,
    mark: (ending: StreamEnding) => void,
  ): Promise<void> {
    if (api === 'chat' && turn.status === 'failed') {
      const error = turn.error ?? { code: 'server_error', message: 'The model failed to produce a response.' };
      sendJson(res, 500, errorBody(error.message, 'server_error', error.code), headers);
      return;
    }
    if (body.stream !== true) {
      sendJson(res, 200, api === 'responses' ? responsesObject(turn, body, this.#ids) : chatCompletion(turn, body, this.#ids), headers);
      return;
    }
    const events = api === 'responses' ? responsesEvents(turn, body, this.#ids) : chatChunks(turn, body, this.#ids);
    await writeSse(res, events, turn.stream ?? {}, api, headers, mark);
  }
}

/** Starts a fake OpenAI server on a random loopback port. */
export function startFakeOpenAIServer(options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  return FakeOpenAIServer.start(options);
}

function errorBody(message: string, type: string, code: string | null): Record<string, unknown> {
  return { error: { message, type, param: null, code } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, turn: FakeErrorTurn, headers: Record<string, string>): void {
  if (typeof turn.body === 'string') {
    res.writeHead(turn.status, { 'content-type': turn.contentType ?? 'text/plain', ...headers });
    res.end(turn.body);
    return;
  }
  const body = turn.body ?? errorBody(`Fake error with status ${turn.status}.`, turn.status >= 500 ? 'server_error' : 'invalid_request_error', `fake_${turn.status}`);
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
