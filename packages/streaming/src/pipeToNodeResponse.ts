import { SSE_HEADERS } from './internal/sseFrame.js';
import { toSSE, type SSEResponseOptions, type StreamedRunLike } from './toSSE.js';

/** The part of Node's `http.ServerResponse` (or `http2` compat response) the helper uses. */
export interface NodeResponseLike {
  readonly headersSent: boolean;
  readonly writableFinished: boolean;
  readonly destroyed?: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  flushHeaders?(): void;
  write(chunk: Uint8Array): boolean;
  end(): unknown;
  /** Closes the connection at once (a client that stopped reading, see `drainTimeoutMs`). */
  destroy?(): unknown;
  on(event: 'close' | 'drain', listener: () => void): unknown;
  off(event: 'close' | 'drain', listener: () => void): unknown;
}

/**
 * Streams the run to a Node `http.ServerResponse` as `text/event-stream` (the `toSSE` frames, with
 * its defaults: no raw model events, generic error messages), respecting the socket's backpressure
 * (`write` → `drain`). When the client disconnects before the run ends, the run is cancelled; so it
 * is when the socket does not drain within `drainTimeoutMs` (default 30 s: a client that stopped
 * reading), and the connection is destroyed. Resolves when the response has ended (or the client
 * went away).
 */
export async function pipeToNodeResponse(result: StreamedRunLike, res: NodeResponseLike, options: SSEResponseOptions = {}): Promise<void> {
  const { status, headers, drainTimeoutMs = 30_000, ...sse } = options;
  // This loop reads as soon as the socket takes more, so the deadline is kept on the socket here.
  const reader = toSSE(result, { ...sse, drainTimeoutMs: 0 }).getReader();
  if (typeof drainTimeoutMs !== 'number' || !Number.isFinite(drainTimeoutMs) || drainTimeoutMs < 0) {
    await reader.cancel();
    throw new TypeError(`pipeToNodeResponse(): drainTimeoutMs must be a number >= 0, got ${String(drainTimeoutMs)}.`);
  }
  let gone = false;
  const onClose = () => {
    if (res.writableFinished) return;
    gone = true;
    void reader.cancel().catch(() => undefined); // cancels the run
  };
  res.on('close', onClose);
  try {
    if (res.destroyed) return onClose();
    if (!res.headersSent) res.writeHead(status ?? 200, { ...SSE_HEADERS, ...headers });
    res.flushHeaders?.();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!res.write(value) && !(await drained(res, drainTimeoutMs))) {
        // The client stopped reading: let go of the run and of the connection.
        gone = true;
        await reader.cancel().catch(() => undefined);
        res.destroy?.();
        break;
      }
    }
    if (!gone) res.end();
  } catch (error) {
    if (!gone) {
      gone = true;
      await reader.cancel().catch(() => undefined);
      res.end(); // the client sees the stream end without run_end: a typed `missing_end` error
    }
    throw error;
  } finally {
    res.off('close', onClose);
  }
}

/** Whether the socket drained (or closed) before the deadline (`0`: no deadline). */
function drained(res: NodeResponseLike, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      res.off('drain', done);
      res.off('close', done);
      resolve(ok);
    };
    const done = () => finish(true);
    const timer = timeoutMs > 0 ? setTimeout(() => finish(false), timeoutMs) : undefined;
    res.on('drain', done);
    res.on('close', done);
  });
}
