const BRAND = Symbol.for('@baton/streaming/RunEventStreamError');

/**
 * Why reading a run's event stream failed:
 * - `http_status`: the response was not 2xx (`status` is set);
 * - `not_event_stream`: the response is not `text/event-stream`, or has no body;
 * - `incomplete_event`: the stream ended in the middle of an event (the partial event is dropped);
 * - `missing_end`: the stream ended between events, before the run's `run_end` frame;
 * - `malformed_event`: an event's data is not a JSON object with a string `event_type`;
 * - `connection_lost`: reading the body failed (a network error, the server went away);
 * - `aborted`: the reader's `signal` (or the fetch's) was aborted;
 * - `event_too_large`: a line or an event is larger than the reader's limits (`maxLineLength`,
 *   `maxEventSize`, `maxBufferSize`); reading stopped and the request was cancelled;
 * - `run_failed`: the server's run failed (`remoteError` has the error's name and message).
 */
export type RunEventStreamErrorReason =
  | 'http_status'
  | 'not_event_stream'
  | 'incomplete_event'
  | 'missing_end'
  | 'malformed_event'
  | 'connection_lost'
  | 'aborted'
  | 'event_too_large'
  | 'run_failed';

/** The one error `readRunEvents` throws; `reason` says what went wrong. */
export class RunEventStreamError extends Error {
  override readonly name = 'RunEventStreamError';
  readonly reason: RunEventStreamErrorReason;
  /** The HTTP status, for `http_status`. */
  readonly status?: number;
  /** The server-side error, for `run_failed`. */
  readonly remoteError?: { name: string; message: string };

  constructor(
    reason: RunEventStreamErrorReason,
    message: string,
    options: { cause?: unknown; status?: number; remoteError?: { name: string; message: string } } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    if (options.status !== undefined) this.status = options.status;
    if (options.remoteError !== undefined) this.remoteError = options.remoteError;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** `instanceof` works across copies of this package (ESM and CommonJS builds, bundled copies). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
