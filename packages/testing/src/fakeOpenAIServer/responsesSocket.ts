import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import type { FakeRequestBody, FakeResponseTurn, FakeTurn } from './turns.js';

type Json = Record<string, unknown>;

/** What the socket side needs from the server: a turn per request, the recording, the rendering. */
export interface SocketHost {
  nextTurn(path: string, body: FakeRequestBody): Exclude<FakeTurn, { type: 'responder' }> | undefined;
  record(upgrade: IncomingMessage, body: FakeRequestBody): (outcome: 'completed' | 'cut' | 'client_closed') => void;
  events(turn: FakeResponseTurn, body: FakeRequestBody): Json[];
}

/**
 * The Responses API's WebSocket mode, as `FakeOpenAIServer` speaks it on `GET /v1/responses`
 * (upgrade): each `response.create` frame is a request (recorded like an HTTP one, with its body
 * without `type`) answered by the next scripted turn's stream events, one JSON text frame each.
 * `stream.cutAfterEvents` drops the socket after that many events (a connection lost mid-answer),
 * `stream.eventDelayMs` paces them; an error turn answers with an `error` event. The socket stays
 * open for the next request.
 */
export class FakeResponsesSocket {
  /** Made on the first upgrade: `ws` is an optional peer (the OpenAI provider brings it). */
  #wss: WebSocketServer | undefined;
  readonly #host: SocketHost;
  #upgrades = 0;

  /** WebSocket connections accepted so far. */
  get upgrades(): number {
    return this.#upgrades;
  }

  /** WebSocket connections open now. */
  get open(): number {
    return this.#wss?.clients.size ?? 0;
  }

  constructor(host: SocketHost) {
    this.#host = host;
  }

  /** Takes the upgrade when it is for `/v1/responses`; otherwise refuses it. */
  async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/v1/responses') {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    if (this.#wss === undefined) {
      try {
        const { WebSocketServer: Server } = await import('ws');
        this.#wss ??= new Server({ noServer: true });
      } catch {
        socket.end('HTTP/1.1 501 Not Implemented\r\ncontent-length: 0\r\n\r\n');
        return;
      }
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => {
      this.#upgrades += 1;
      let queue = Promise.resolve();
      ws.on('message', (data: RawData) => {
        queue = queue.then(() => this.#answer(ws, request, data)).catch(() => ws.terminate());
      });
    });
  }

  close(): void {
    if (this.#wss === undefined) return;
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
  }

  async #answer(ws: WebSocket, upgrade: IncomingMessage, data: RawData): Promise<void> {
    let frame: Json;
    try {
      frame = JSON.parse(String(data)) as Json;
    } catch {
      return send(ws, errorEvent('invalid_request_error', 'FakeOpenAIServer: the websocket frame is not JSON.'));
    }
    const { type, ...body } = frame;
    const done = this.#host.record(upgrade, body);
    if (type !== 'response.create') return void (send(ws, errorEvent('invalid_request_error', `FakeOpenAIServer: unknown websocket frame type ${JSON.stringify(type)}.`)), done('completed'));
    const turn = this.#host.nextTurn('/v1/responses', body);
    if (turn === undefined || turn.type !== 'response') {
      const message = turn === undefined ? 'FakeOpenAIServer: no scripted turn left for the websocket request.' : `FakeOpenAIServer: a ${turn.type} turn cannot answer a websocket request.`;
      send(ws, errorEvent(turn?.type === 'error' ? `fake_${turn.status}` : 'no_scripted_turn', message));
      return done('completed');
    }
    const events = this.#host.events(turn, body);
    const options = turn.stream ?? {};
    for (const [index, event] of events.entries()) {
      if (options.cutAfterEvents !== undefined && index >= options.cutAfterEvents) {
        ws.terminate();
        return done('cut');
      }
      if (options.eventDelayMs !== undefined && index > 0) await new Promise((resolve) => setTimeout(resolve, options.eventDelayMs));
      if (ws.readyState !== ws.OPEN) return done('client_closed');
      send(ws, event);
    }
    done('completed');
  }
}

function send(ws: WebSocket, event: Json): void {
  ws.send(JSON.stringify(event));
}

function errorEvent(code: string, message: string): Json {
  return { type: 'error', error: { type: 'invalid_request_error', code, message, param: null } };
}
