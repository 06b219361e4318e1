import type { OpenAIApi } from '../openaiProviderError.js';
import { timeoutError } from './callWithRetry.js';
import { abortedError, toProviderError } from './toProviderError.js';

export interface ReadStreamOptions {
  readonly api: OpenAIApi;
  /** The model request's signal. */
  readonly signal?: AbortSignal | undefined;
  /** Aborts the HTTP request (closes the connection). */
  readonly abort: () => void;
  /** Longest wait for the next event, in milliseconds. */
  readonly idleTimeoutMs?: number | undefined;
  readonly requestId?: string | undefined;
}

const IDLE = Symbol('idle');

/**
 * Reads an `openai` client stream, turning every way it can fail into an `OpenAIProviderError`:
 * a broken connection, a frame that is not JSON, an error frame, no event within the idle
 * timeout, or `request.signal` (the client ends an aborted stream quietly; this throws). A consumer
 * that stops early, or any failure, closes the HTTP connection.
 */
export async function* readStream<T>(source: AsyncIterable<T>, options: ReadStreamOptions): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  const context = { api: options.api, phase: 'stream' as const, signal: options.signal, requestId: options.requestId };
  let finished = false;
  try {
    while (true) {
      let next: IteratorResult<T>;
      try {
        next = await nextWithin(iterator, options.idleTimeoutMs);
      } catch (error) {
        if (error === IDLE) throw timeoutError(options.api, options.idleTimeoutMs!);
        throw toProviderError(error, context);
      }
      if (next.done) break;
      yield next.value;
    }
    finished = true;
  } finally {
    if (!finished) {
      options.abort();
      void iterator.return?.().catch(() => {});
    }
  }
  if (options.signal?.aborted) throw abortedError(options.api, options.signal.reason);
}

function nextWithin<T>(iterator: AsyncIterator<T>, timeoutMs: number | undefined): Promise<IteratorResult<T>> {
  const next = iterator.next();
  if (timeoutMs === undefined) return next;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(IDLE), timeoutMs);
  });
  return Promise.race([next, idle]).finally(() => clearTimeout(timer));
}
