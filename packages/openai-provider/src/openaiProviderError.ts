import { AgentsError } from '@baton/types';

/** Which OpenAI API a model talks to. */
export type OpenAIApi = 'responses' | 'chat_completions';

/**
 * Why an OpenAI call failed:
 * - `http`: the API answered with an error status (`status`, and `code` / `type` / `param` from its body)
 * - `connection`: the connection could not be made or dropped before an answer
 * - `timeout`: an attempt took longer than `modelSettings.timeoutMs` (or the client's own timeout)
 * - `aborted`: `request.signal` fired
 * - `response_failed` / `response_incomplete`: the response ended with status `failed` / `incomplete`
 * - `stream_interrupted`: the stream broke or ended before its final event
 * - `stream_error`: the server sent an error inside the stream
 * - `malformed_stream`: a stream frame that is not JSON
 * - `invalid_response`: an answer the provider cannot use (for example no choices)
 */
export type OpenAIProviderErrorReason =
  | 'http'
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'response_failed'
  | 'response_incomplete'
  | 'stream_interrupted'
  | 'stream_error'
  | 'malformed_stream'
  | 'invalid_response';

export interface OpenAIProviderErrorDetails {
  readonly reason: OpenAIProviderErrorReason;
  readonly api: OpenAIApi;
  readonly message: string;
  readonly status?: number | undefined;
  readonly requestId?: string | undefined;
  readonly code?: string | undefined;
  readonly type?: string | undefined;
  readonly param?: string | undefined;
  /** The error body the API sent (parsed JSON), or the failed / incomplete response object. */
  readonly body?: unknown;
  readonly retryable?: boolean | undefined;
  /** The server's `Retry-After` (or `retry-after-ms`), in milliseconds. */
  readonly retryAfterMs?: number | undefined;
  /** The server's `x-should-retry` header, when it sent one. */
  readonly shouldRetryHeader?: string | undefined;
  readonly cause?: unknown;
}

/**
 * The one error the OpenAI provider throws for a failed call, tagged by `reason`. It carries the
 * HTTP status and the request id (the `x-request-id` header) whenever the server sent them. An
 * `AgentsError`, so one `catch (e instanceof AgentsError)` covers Baton's errors and the provider's.
 */
export class OpenAIProviderError extends AgentsError {
  override readonly _tag = 'OpenAIProviderError' as const;
  readonly reason: OpenAIProviderErrorReason;
  readonly api: OpenAIApi;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly code: string | undefined;
  readonly type: string | undefined;
  readonly param: string | undefined;
  readonly body: unknown;
  /** Whether the provider's retry policy may try again (429, 408, 409, 5xx, connection errors, timeouts). */
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  /** The server's `x-should-retry` header (`'true'` / `'false'`), when it sent one; it decides retries. */
  readonly shouldRetryHeader: string | undefined;
  /** How many attempts were made before giving up (set once retries are exhausted). */
  attempts = 1;

  constructor(details: OpenAIProviderErrorDetails) {
    super(details.message);
    if (details.cause !== undefined) this.cause = details.cause;
    this.name = 'OpenAIProviderError';
    this.reason = details.reason;
    this.api = details.api;
    this.status = details.status;
    this.requestId = details.requestId;
    this.code = details.code;
    this.type = details.type;
    this.param = details.param;
    this.body = details.body;
    this.retryable = details.retryable ?? false;
    this.retryAfterMs = details.retryAfterMs;
    this.shouldRetryHeader = details.shouldRetryHeader;
  }
}

/** True for an `OpenAIProviderError` (optionally with the given reason). */
export function isOpenAIProviderError(error: unknown, reason?: OpenAIProviderErrorReason): error is OpenAIProviderError {
  return error instanceof OpenAIProviderError && (reason === undefined || error.reason === reason);
}
