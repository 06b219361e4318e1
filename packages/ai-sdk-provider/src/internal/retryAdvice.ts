import type { ModelRetryAdvice, ModelRetryAdviceRequest } from '@baton/types';
import { AiSdkProviderError } from '../aiSdkProviderError.js';

/**
 * Advice for `modelSettings.retry.policy` (`retryPolicies.providerSuggested()`), from the AI SDK's
 * own verdict: an HTTP error or a dropped connection is worth retrying when `APICallError.isRetryable`
 * said so (408, 409, 429, 5xx, network failures), after the server's `Retry-After`. A timed-out
 * attempt or a broken stream may already have been processed, so replaying it is unsafe; a
 * cancelled request is never retried; anything else (a rejected request, an unreadable or
 * incomplete answer) would fail again.
 */
export function aiSdkRetryAdvice({ error }: ModelRetryAdviceRequest): ModelRetryAdvice | undefined {
  if (!(error instanceof AiSdkProviderError)) {
    // An AI SDK error handed over as it is: its own `isRetryable` verdict, when it gives one.
    const verdict = typeof error === 'object' && error !== null ? (error as { isRetryable?: unknown }).isRetryable : undefined;
    if (typeof verdict !== 'boolean') return undefined;
    return error instanceof Error ? { suggested: verdict, reason: error.message } : { suggested: verdict };
  }
  const reason = error.message;
  const normalized: NonNullable<ModelRetryAdvice['normalized']> = { isNetworkError: error.reason === 'connection', isAbort: error.reason === 'aborted' };
  if (error.status !== undefined) normalized.statusCode = error.status;
  if (error.code !== undefined) normalized.errorCode = error.code;
  if (error.retryAfterMs !== undefined) normalized.retryAfterMs = error.retryAfterMs;
  const withRetryAfter = error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs };
  switch (error.reason) {
    case 'aborted':
      return { suggested: false, reason, normalized };
    case 'timeout':
      return { suggested: false, replaySafety: 'unsafe', responseStarted: false, reason, normalized };
    case 'stream_interrupted':
    case 'stream_error':
      return { suggested: false, replaySafety: 'unsafe', responseStarted: true, reason, normalized, ...withRetryAfter };
    case 'http':
    case 'connection':
      return { suggested: error.retryable, reason, normalized, ...withRetryAfter };
    default:
      return { suggested: false, reason, normalized };
  }
}
