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
 *
 * Hosted multi-agent requests (`multi_agent: { enabled: true }` in the frame) keep the response
 * open around local function calls, as the service does: after each `function_call` item the
 * answer waits for a `response.inject` frame (recorded like a request, its body with `type`),
 * acknowledges it with `response.inject.created`, and goes on. An injection no response waits for
 * is answered with `response.inject.failed` (`response_already_completed`, its input echoed).
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
      const injections = new InjectionSlot();
      ws.on('message', (data: RawData) => {
        // An injection into the response being answered goes to it at once (the answer waits for it).
        if (injections.offer(data)) return;
        queue = queue.then(() => this.#answer(ws, request, data, injections)).catch(() => ws.terminate());
      });
      ws.on('close', () => injections.offer(null));
    });
  }

  close(): void {
    if (this.#wss === undefined) return;
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
  }

  async #answer(ws: WebSocket, upgrade: IncomingMessage, data: RawData, injections: InjectionSlot): Promise<void> {
    let frame: Json;
    try {
      frame = JSON.parse(String(data)) as Json;
    } catch {
      return send(ws, errorEvent('invalid_request_error', 'FakeOpenAIServer: the websocket frame is not JSON.'));
    }
    const { type, ...body } = frame;
    if (type === 'response.inject') {
      this.#host.record(upgrade, frame)('completed');
      return send(ws, {
        type: 'response.inject.failed',
        response_id: frame.response_id,
        error: { code: 'response_already_completed', message: 'FakeOpenAIServer: no response is waiting for this injection.' },
        input: frame.input,
      });
    }
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
    const hosted = isRecord(body.multi_agent) && body.multi_agent.enabled === true;
    const responseId = isRecord(events[0]?.response) ? events[0].response.id : undefined;
    for (const [index, event] of events.entries()) {
      if (options.cutAfterEvents !== undefined && index >= options.cutAfterEvents) {
        ws.terminate();
        return done('cut');
      }
      if (options.eventDelayMs !== undefined && index > 0) await new Promise((resolve) => setTimeout(resolve, options.eventDelayMs));
      if (ws.readyState !== ws.OPEN) return done('client_closed');
      send(ws, event);
      if (hosted && event.type === 'response.output_item.done' && isRecord(event.item) && event.item.type === 'function_call') {
        const injection = await injections.next();
        if (injection === null) return done('client_closed');
        this.#host.record(upgrade, injection)('completed');
        send(ws, { type: 'response.inject.created', response_id: injection.response_id ?? responseId });
      }
    }
    done('completed');
  }
}

/** A socket's `response.inject` frames, for the answer waiting for one (`null`: the socket closed). */
class InjectionSlot {
  #waiter: ((frame: Json | null) => void) | undefined;

  /** Waits for the next injection. */
  next(): Promise<Json | null> {
    return new Promise((resolve) => (this.#waiter = resolve));
  }

  /** Hands an injection frame (or the close) to the waiting answer; false when nothing waits or it is another frame. */
  offer(data: RawData | null): boolean {
    const waiter = this.#waiter;
    if (waiter === undefined) return false;
    if (data === null) {
      this.#waiter = undefined;
      waiter(null);
      return true;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(String(data));
    } catch {
      return false;
    }
    if (!isRecord(frame) || frame.type !== 'response.inject') return false;
    this.#waiter = undefined;
    waiter(frame);
    return true;
  }
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function send(ws: WebSocket, event: Json): void {
  ws.send(JSON.stringify(event));
}

function errorEvent(code: string, message: string): Json {
  return { type: 'error', error: { type: 'invalid_request_error', code, message, param: null } };
}
