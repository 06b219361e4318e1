import type { FetchLike } from '@modelcontextprotocol/client';

/** What a guarded fetch tells the connection it serves. */
export interface FetchGuardEvents {
  /** The request `id` (sent in a POST) can no longer be answered: fail it with `message`. */
  requestFailed(id: string | number, message: string): void;
  /** The session itself is lost (its event stream broke or carried a message past the limit). */
  connectionLost(reason: string): void;
}

export interface FetchGuardOptions {
  /** Largest body of one answer (a JSON body, or one event of an event stream); `null`: no limit. */
  maxResponseBytes: number | null;
  /** Whether a GET event stream that ends or breaks is the end of the session (the legacy SSE transport). */
  getStreamIsSession: boolean;
}

/**
 * `fetch` for an HTTP transport, guarding what the MCP SDK reads from an untrusted server:
 * - a body (or one event of a stream) past `maxResponseBytes` is not read on: a POST's request
 *   fails with an error saying so (the session goes on), a session stream loses the session;
 * - a POST's event stream that breaks before it could be resumed (the server went away mid-call)
 *   fails its request at once, instead of leaving it to the request timeout.
 * The SDK answers JSON bodies through `fetch`'s own promise, so a broken JSON answer already fails
 * its request; only the limit applies there.
 */
export function guardFetch(base: FetchLike, options: FetchGuardOptions, events: FetchGuardEvents): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    // An error's body is read whole by the SDK (into its error message): bounded too.
    if (!response.ok) return withBody(response, capBody(response.body, options.maxResponseBytes));
    const method = (init?.method ?? 'GET').toUpperCase();
    const signal = init?.signal ?? undefined;
    const requestId = method === 'POST' ? requestIdOf(init?.body) : undefined;
    const eventStream = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase() === 'text/event-stream';
    const body = eventStream
      ? guardEventStream(response.body, {
          limit: options.maxResponseBytes,
          aborted: () => signal?.aborted === true,
          tooLarge: () =>
            requestId !== undefined ? events.requestFailed(requestId, tooLargeMessage(options.maxResponseBytes!)) : events.connectionLost(tooLargeMessage(options.maxResponseBytes!)),
          broken: (error, resumable) => {
            if (requestId !== undefined && !resumable) events.requestFailed(requestId, `the connection to the server closed before it answered (${describe(error)})`);
            if (requestId === undefined && method === 'GET' && options.getStreamIsSession) events.connectionLost(`the server's event stream broke (${describe(error)})`);
          },
          ended: () => {
            if (method === 'GET' && options.getStreamIsSession) events.connectionLost("the server closed the session's event stream");
          },
        })
      : capBody(response.body, options.maxResponseBytes);
    return withBody(response, body);
  };
}

function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const guarded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperty(guarded, 'url', { value: response.url });
  return guarded;
}

/** What an answer past `maxResponseBytes` fails with, on every transport. */
export function tooLargeMessage(limit: number): string {
  return `the server's answer is larger than maxResponseBytes (${limit} bytes); raise \`maxResponseBytes\` if answers this large are expected`;
}

/** A body that errors (and stops reading the server) once it passes `limit` bytes. */
function capBody(source: ReadableStream<Uint8Array>, limit: number | null): ReadableStream<Uint8Array> {
  if (limit === null) return source;
  const reader = source.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) return controller.close();
      total += chunk.value.byteLength;
      if (total > limit) {
        const error = new Error(tooLargeMessage(limit));
        reader.cancel(error).catch(() => undefined);
        return controller.error(error);
      }
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

interface EventStreamWatch {
  limit: number | null;
  aborted(): boolean;
  tooLarge(): void;
  broken(error: unknown, resumable: boolean): void;
  ended(): void;
}

const LF = 0x0a;
const CR = 0x0d;
const ID_FIELD = [0x69, 0x64, 0x3a]; // "id:"

/**
 * An event stream passed through as it comes, while counting the bytes of the event being read (a
 * blank line ends an event) and noting whether the server gave event ids (a stream with ids can be
 * resumed, and the SDK does so itself).
 */
function guardEventStream(source: ReadableStream<Uint8Array>, watch: EventStreamWatch): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let eventBytes = 0;
  let lineLength = 0;
  let lineIsId = true;
  let afterCR = false;
  let resumable = false;
  const endLine = () => {
    if (lineLength === 0) eventBytes = 0;
    else if (lineIsId && lineLength >= ID_FIELD.length) resumable = true;
    lineLength = 0;
    lineIsId = true;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (!watch.aborted()) watch.broken(error, resumable);
        return controller.error(error);
      }
      if (chunk.done) {
        if (!watch.aborted()) watch.ended();
        return controller.close();
      }
      const bytes = chunk.value;
      for (let i = 0; i < bytes.length; i++) {
        const byte = bytes[i]!;
        if (byte === LF && afterCR) {
          afterCR = false;
          continue;
        }
        afterCR = byte === CR;
        if (byte === LF || byte === CR) {
          endLine();
          continue;
        }
        if (lineLength < ID_FIELD.length && byte !== ID_FIELD[lineLength]) lineIsId = false;
        lineLength++;
        if (watch.limit !== null && ++eventBytes > watch.limit) {
          // Stop reading the server; the SDK never sees this event completed, so never parses it.
          reader.cancel(new Error('answer too large')).catch(() => undefined);
          if (i > 0) controller.enqueue(bytes.subarray(0, i));
          watch.tooLarge();
          return controller.close();
        }
      }
      controller.enqueue(bytes);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** The id of the JSON-RPC request in a POST body (not of notifications, answers or batches). */
function requestIdOf(body: RequestInit['body']): string | number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    if (typeof message !== 'object' || message === null || typeof message.method !== 'string') return undefined;
    return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
