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
  on(event: 'close' | 'drain', listener: () => void): unknown;
  off(event: 'close' | 'drain', listener: () => void): unknown;
}

/**
 * Streams the run to a Node `http.ServerResponse` as `text/event-stream` (the `toSSE` frames),
 * respecting the socket's backpressure (`write` → `drain`). When the client disconnects before the
 * run ends, the run is cancelled. Resolves when the response has ended (or the client went away).
 */
export async function pipeToNodeResponse(result: StreamedRunLike, res: NodeResponseLike, options: SSEResponseOptions = {}): Promise<void> {
  const { status, headers, ...sse } = options;
  const reader = toSSE(result, sse).getReader();
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
      if (!res.write(value)) await drained(res);
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

function drained(res: NodeResponseLike): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
