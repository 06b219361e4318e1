import type { ClientOptions, RawData, WebSocket } from 'ws';
import { OpenAIProviderError } from '../../openaiProviderError.js';

/**
 * One WebSocket to the Responses API (`wss://…/v1/responses`), on the `ws` library: text frames
 * out, JSON event frames in, read one at a time. A frame that arrives before it is read waits in
 * order; the socket closing ends the reads (`next()` resolves to `null`).
 */
export class ResponsesWebSocketConnection {
  readonly #socket: WebSocket;
  readonly #frames: string[] = [];
  #waiter: ((frame: string | null) => void) | undefined;
  #closed = false;
  #failure: Error | undefined;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data: RawData) => this.#push(rawText(data)));
    socket.on('close', () => this.#end());
    socket.on('error', (error: Error) => {
      this.#failure ??= error;
      this.#end();
    });
  }

  /**
   * Opens a socket; a handshake that fails, times out or is aborted rejects, leaving nothing open.
   * `ws` is loaded on the first connection, so programs that never open one do not pay its import.
   */
  static async connect(url: string, headers: Record<string, string>, signal: AbortSignal | undefined, timeoutMs: number | undefined, options?: ClientOptions): Promise<ResponsesWebSocketConnection> {
    const { default: WebSocket } = await import('ws');
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { ...options, headers: { ...(options?.headers as Record<string, string> | undefined), ...headers } });
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => fail(timeoutError(timeoutMs)), timeoutMs);
      const onAbort = () => fail(abortedError());
      const cleanup = () => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        socket.off('open', onOpen);
        socket.off('error', onError);
        socket.off('unexpected-response', onUnexpected);
      };
      const fail = (error: Error) => {
        cleanup();
        // Ending a handshake still under way makes `ws` emit an error of its own: the call already fails with `error`.
        socket.on('error', () => undefined);
        socket.terminate();
        reject(error);
      };
      const onOpen = () => {
        cleanup();
        resolve(new ResponsesWebSocketConnection(socket));
      };
      const onError = (error: Error) =>
        fail(new OpenAIProviderError({ reason: 'connection', api: 'responses', message: `Responses websocket connection failed: ${error.message}`, cause: error, retryable: true }));
      const onUnexpected = (_request: unknown, response: { statusCode?: number }) =>
        fail(
          new OpenAIProviderError({
            reason: 'http',
            api: 'responses',
            status: response.statusCode,
            message: `Responses websocket handshake was refused with status ${String(response.statusCode)}.`,
          }),
        );
      if (signal?.aborted) return fail(abortedError());
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.once('open', onOpen);
      socket.once('error', onError);
      socket.once('unexpected-response', onUnexpected);
    });
  }

  /** Open, and no read or failure has ended it. */
  isReusable(): boolean {
    return !this.#closed && this.#socket.readyState === this.#socket.OPEN;
  }

  send(text: string): Promise<void> {
    if (!this.isReusable()) return Promise.reject(new OpenAIProviderError({ reason: 'connection', api: 'responses', message: 'Responses websocket is not open.', retryable: true }));
    return new Promise((resolve, reject) => this.#socket.send(text, (error) => (error ? reject(error) : resolve())));
  }

  /** The next frame's text, or `null` once the socket closed. */
  next(): Promise<string | null> {
    const frame = this.#frames.shift();
    if (frame !== undefined) return Promise.resolve(frame);
    if (this.#closed) return Promise.resolve(null);
    return new Promise((resolve) => (this.#waiter = resolve));
  }

  /** The socket error that closed it, if one did. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Closes the socket now (no close handshake wait): nothing is left open. */
  close(): void {
    this.#socket.terminate();
    this.#end();
  }

  #push(frame: string): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter) waiter(frame);
    else this.#frames.push(frame);
  }

  #end(): void {
    this.#closed = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.(null);
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

function timeoutError(timeoutMs: number): OpenAIProviderError {
  return new OpenAIProviderError({ reason: 'timeout', api: 'responses', message: `Responses websocket connection timed out before opening after ${timeoutMs}ms.`, retryable: true });
}

export function abortedError(): OpenAIProviderError {
  return new OpenAIProviderError({ reason: 'aborted', api: 'responses', message: 'The Responses websocket request was aborted.' });
}
