import { AgentsError } from '@baton/types';

/**
 * Why a call to an AI SDK language model failed:
 * - `http`: the vendor answered with an error status (`status`, `body`, `retryable` from the AI SDK's `APICallError`)
 * - `connection`: no answer arrived (connection refused or reset, DNS, ...)
 * - `timeout`: an attempt took longer than `modelSettings.timeoutMs`
 * - `aborted`: `request.signal` fired (the HTTP request is aborted too)
 * - `stream_error`: the model's stream sent an `error` part
 * - `stream_interrupted`: the stream broke, or ended without its `finish` part (or finished `interrupted`)
 * - `invalid_response`: an answer the language model could not parse or validate
 * - `response_incomplete`: the response stopped at the token limit (`length`) before producing any output
 * - `response_failed`: the response finished with reason `error` and no output
 * - `invalid_request`: the language model refused the call itself (unsupported feature, invalid prompt, missing API key)
 * - `unknown`: the language model threw something that is none of the above (kept as `cause`)
 */
export type AiSdkProviderErrorReason =
  | 'http'
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'stream_error'
  | 'stream_interrupted'
  | 'invalid_response'
  | 'response_incomplete'
  | 'response_failed'
  | 'invalid_request'
  | 'unknown';

export interface AiSdkProviderErrorDetails {
  readonly reason: AiSdkProviderErrorReason;
  readonly message: string;
  /** The language model's `provider` (for example `anthropic.messages`). */
  readonly provider: string;
  readonly modelId: string;
  readonly status?: number | undefined;
  readonly requestId?: string | undefined;
  /** The vendor's error code or type, when its error body carries one. */
  readonly code?: string | undefined;
  /** The vendor's error body (parsed JSON when it is JSON), or the error part a stream sent. */
  readonly body?: unknown;
  readonly retryable?: boolean | undefined;
  /** From the `retry-after-ms` / `retry-after` response headers, in milliseconds. */
  readonly retryAfterMs?: number | undefined;
  readonly cause?: unknown;
}

/** The AI SDK error fields code written for the reference's adapter (which rethrows the AI SDK's error) reads; copied from the cause. */
const AI_SDK_FIELDS = ['statusCode', 'responseBody', 'responseHeaders', 'url', 'requestBodyValues', 'isRetryable', 'data'] as const;

/**
 * The one error this package throws for a failed model call, tagged by `reason` (the
 * `ModelProviderError` convention: `_tag` ends in `ProviderError`, so `Effect.catchTag` narrows it).
 * `retryable` is the AI SDK's own verdict (`APICallError.isRetryable`: 408, 409, 429, 5xx and
 * dropped connections); `getRetryAdvice` on the model turns it into advice for
 * `retryPolicies.providerSuggested()`.
 *
 * It also reads as the AI SDK error it wraps: the message is that error's own, its fields
 * (`statusCode`, `responseBody`, `responseHeaders`, `url`, `requestBodyValues`, `isRetryable`,
 * `data`) are copied, and so are its AI SDK markers, so `APICallError.isInstance(error)` holds as
 * it does for the reference's adapter; the original is `cause`.
 */
export class AiSdkProviderError extends AgentsError {
  override readonly _tag = 'AiSdkProviderError' as const;
  readonly reason: AiSdkProviderErrorReason;
  readonly provider: string;
  readonly modelId: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly code: string | undefined;
  readonly body: unknown;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  /** From the wrapped AI SDK error (`APICallError`), when it had them. */
  declare readonly statusCode?: number;
  declare readonly responseBody?: string;
  declare readonly responseHeaders?: Record<string, string>;
  declare readonly url?: string;
  declare readonly requestBodyValues?: unknown;
  declare readonly isRetryable?: boolean;
  declare readonly data?: unknown;

  constructor(details: AiSdkProviderErrorDetails) {
    super(details.message);
    if (details.cause !== undefined) this.cause = details.cause;
    this.name = 'AiSdkProviderError';
    this.reason = details.reason;
    this.provider = details.provider;
    this.modelId = details.modelId;
    this.status = details.status;
    this.requestId = details.requestId;
    this.code = details.code;
    this.body = details.body;
    this.retryable = details.retryable ?? false;
    this.retryAfterMs = details.retryAfterMs;
    adoptAiSdkFields(this, details.cause);
  }
}

function adoptAiSdkFields(target: AiSdkProviderError, cause: unknown): void {
  if (typeof cause !== 'object' || cause === null) return;
  const source = cause as Record<string | symbol, unknown>;
  for (const field of AI_SDK_FIELDS) {
    if (field in source && source[field] !== undefined) Object.defineProperty(target, field, { value: source[field], enumerable: false, configurable: true });
  }
  // `AISDKError.isInstance` checks a `Symbol.for('vercel.ai.error...')` marker set on the instance.
  for (const symbol of Object.getOwnPropertySymbols(source)) {
    if (symbol.description?.startsWith('vercel.ai.error') === true) Object.defineProperty(target, symbol, { value: source[symbol], enumerable: false, configurable: true });
  }
}

/** True for an `AiSdkProviderError` (optionally with the given reason). */
export function isAiSdkProviderError(error: unknown, reason?: AiSdkProviderErrorReason): error is AiSdkProviderError {
  return error instanceof AiSdkProviderError && (reason === undefined || error.reason === reason);
}
