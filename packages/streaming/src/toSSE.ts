import type { RunStreamEvent, RunToolApprovalItem } from '@baton/types';
import { runEndJSON, runErrorJSON } from './eventToJson.js';
import { exposedEventJSON, exposurePolicy, type RawModelEventsPolicy } from './internal/exposure.js';
import { HEARTBEAT_FRAME, SSE_HEADERS, encodeFrame } from './internal/sseFrame.js';

export type { RawModelEventsPolicy } from './internal/exposure.js';

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
  /** Leave events out of the stream. The run is not affected. */
  filter?: (event: RunStreamEvent) => boolean;
  /**
   * Which `raw_model_stream_event`s go out (also those of nested runs). Default `'none'`: a
   * provider's raw events carry what the browser must not see (the Responses API's
   * `response.created` / `response.completed` hold the agent's instructions and tool definitions).
   * `'text'`: output text deltas only, reduced to `{ type, delta, itemId? }` (a typing effect).
   * `'all'`: every raw event as is, for a trusted client only.
   */
  rawModelEvents?: RawModelEventsPolicy;
  /**
   * Send error messages as they are: the `run_error` frame's and a failed streaming tool's
   * (`tool_stream_end_event.error`). Default `false`: the error's name and a generic message
   * (`'The run failed.'`, `'The tool failed.'`), since an error's text can carry a tool's
   * arguments, a provider's answer or a secret. Log the error on the server (`result.completed`).
   */
  errorDetails?: boolean;
  /**
   * How long a client may go without reading while a frame waits for it, in milliseconds, before
   * the run is cancelled and the stream fails: a client that stops reading (and keeps the
   * connection open) would otherwise hold its run, paused by backpressure, for ever. Default
   * 30000; `0` turns it off.
   */
  drainTimeoutMs?: number;
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
  const heartbeatMs = milliseconds(options.heartbeatMs ?? 15_000, 'heartbeatMs');
  const drainTimeoutMs = milliseconds(options.drainTimeoutMs ?? 30_000, 'drainTimeoutMs');
  const policy = exposurePolicy('toSSE()', options);
  const filter = options.filter;
  const encoder = new TextEncoder();
  const iterator = result[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<RunStreamEvent>> | undefined;
  let nextId = 0;
  let cancelled = false;
  let stalled: ReturnType<typeof setTimeout> | undefined;

  /** A frame was handed over: the client must ask for the next one within the deadline. */
  function awaitNextRead(controller: ReadableStreamDefaultController<Uint8Array>): void {
    if (drainTimeoutMs === 0) return;
    stalled = setTimeout(() => {
      if (cancelled) return;
      cancelled = true;
      void iterator.return?.();
      result.cancel();
      controller.error(new SSEDrainTimeoutError(drainTimeoutMs));
    }, drainTimeoutMs);
  }

  async function pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    for (;;) {
      // An event source that throws the run's error (instead of ending) ends like a failed run.
      pending ??= iterator.next().catch(() => ({ done: true as const, value: undefined }));
      const next = heartbeatMs > 0 ? await orTimeout(pending, heartbeatMs) : await pending;
      if (next === TIMED_OUT) {
        if (cancelled) return;
        controller.enqueue(encoder.encode(HEARTBEAT_FRAME)); // the same read stays pending
        awaitNextRead(controller);
        return;
      }
      pending = undefined;
      if (next.done) {
        const frame = await result.completed.then(
          () => runEndJSON(result),
          (error: unknown) => runErrorJSON(error, { errorDetails: policy.errorDetails }),
        );
        if (cancelled) return;
        if (!result.cancelled) controller.enqueue(encoder.encode(encodeFrame(frame, ++nextId)));
        controller.close();
        return;
      }
      if (cancelled) return;
      if (filter && !filter(next.value)) continue;
      const json = exposedEventJSON(next.value, policy);
      if (json === undefined) continue;
      controller.enqueue(encoder.encode(encodeFrame(json, ++nextId)));
      awaitNextRead(controller);
      return;
    }
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(stalled);
        try {
          await pull(controller);
        } catch (error) {
          // Nothing more can be sent: stop the run rather than leave it without a reader.
          result.cancel();
          throw error;
        }
      },
      async cancel() {
        clearTimeout(stalled);
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

/** The client of a `toSSE` stream stopped reading for longer than `drainTimeoutMs`; its run was cancelled. */
export class SSEDrainTimeoutError extends Error {
  override readonly name = 'SSEDrainTimeoutError';
  constructor(readonly drainTimeoutMs: number) {
    super(`The client read nothing for ${drainTimeoutMs} ms while an event waited for it (drainTimeoutMs); the run was cancelled.`);
  }
}

function milliseconds(value: number, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`toSSE(): ${name} must be a number >= 0, got ${String(value)}.`);
  return value;
}

function orTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
