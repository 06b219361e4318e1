import type { RunStreamEvent, RunToolApprovalItem } from '@baton/types';
import { runEndJSON, runErrorJSON, toEventJSON } from './eventToJson.js';
import { HEARTBEAT_FRAME, SSE_HEADERS, encodeFrame } from './internal/sseFrame.js';

/**
 * What the transports need of a run: a `StreamedRunResult` (its events, once; `completed`; and
 * `cancel()`, called when the client goes away).
 */
export interface StreamedRunLike extends AsyncIterable<RunStreamEvent> {
  readonly completed: Promise<void>;
  readonly cancelled: boolean;
  readonly finalOutput: unknown;
  readonly interruptions: readonly RunToolApprovalItem[];
  readonly lastAgent: { readonly name: string };
  cancel(): void;
}

export interface SSEOptions {
  /**
   * When no event was sent for this long, send an SSE comment so proxies keep an idle connection
   * (a long tool call) open. Milliseconds; default 15000; `0` turns it off.
   */
  heartbeatMs?: number;
  /** Leave events out of the stream (for example raw provider events). The run is not affected. */
  filter?: (event: RunStreamEvent) => boolean;
}

export interface SSEResponseOptions extends SSEOptions {
  status?: number;
  /** Added to (and overriding) the `text/event-stream` headers. */
  headers?: Record<string, string>;
}

const TIMED_OUT = Symbol('timed out');

/**
 * The run's events as a `text/event-stream` body: one frame per event (JSON with `event_type`,
 * see `RunStreamEventJSON`), then a `run_end` frame (final output, pending approvals) or a
 * `run_error` frame. A thin view over the run's one event source: it reads an event only when
 * the receiver asks for bytes, so a slow client slows the run (the run's bounded buffer), and
 * cancelling the stream (the client went away) cancels the run.
 */
export function toSSE(result: StreamedRunLike, options: SSEOptions = {}): ReadableStream<Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  if (!Number.isFinite(heartbeatMs) || heartbeatMs < 0) throw new TypeError(`toSSE(): heartbeatMs must be a number >= 0, got ${String(heartbeatMs)}.`);
  const filter = options.filter;
  const encoder = new TextEncoder();
  const iterator = result[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<RunStreamEvent>> | undefined;
  let nextId = 0;
  let cancelled = false;

  async function pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    for (;;) {
      pending ??= iterator.next();
      const next = heartbeatMs > 0 ? await orTimeout(pending, heartbeatMs) : await pending;
      if (next === TIMED_OUT) {
        if (cancelled) return;
        controller.enqueue(encoder.encode(HEARTBEAT_FRAME)); // the same read stays pending
        return;
      }
      pending = undefined;
      if (next.done) {
        const frame = await result.completed.then(
          () => runEndJSON(result),
          (error: unknown) => runErrorJSON(error),
        );
        if (cancelled) return;
        if (!result.cancelled) controller.enqueue(encoder.encode(encodeFrame(frame, ++nextId)));
        controller.close();
        return;
      }
      if (cancelled) return;
      if (filter && !filter(next.value)) continue;
      controller.enqueue(encoder.encode(encodeFrame(toEventJSON(next.value), ++nextId)));
      return;
    }
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          await pull(controller);
        } catch (error) {
          // Nothing more can be sent: stop the run rather than leave it without a reader.
          result.cancel();
          throw error;
        }
      },
      async cancel() {
        cancelled = true;
        await iterator.return?.();
        result.cancel();
      },
    },
    { highWaterMark: 0 },
  );
}

/** `toSSE` as a web `Response` (for fetch-style servers: Hono, Next.js route handlers, Deno, Bun, workers). */
export function toSSEResponse(result: StreamedRunLike, options: SSEResponseOptions = {}): Response {
  const { status, headers, ...sse } = options;
  return new Response(toSSE(result, sse), { status: status ?? 200, headers: { ...SSE_HEADERS, ...headers } });
}

function orTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
