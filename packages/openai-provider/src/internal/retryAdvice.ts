import type { ModelRetryAdvice, ModelRetryAdviceRequest } from '@baton/types';
import { OpenAIProviderError } from '../openaiProviderError.js';

/**
 * The OpenAI models' advice for `modelSettings.retry.policy` (`retryPolicies.providerSuggested()`):
 * the statuses OpenAI's own client retries (408, 409, 429, 5xx) and dropped connections are worth
 * retrying, unless the request continued a server-kept conversation (the server may already have
 * stored it). A timed-out attempt or a broken stream may already have been processed, so replaying
 * it is unsafe; a cancelled one is never retried.
 */
export function openAIRetryAdvice({ error, request }: ModelRetryAdviceRequest): ModelRetryAdvice | undefined {
  if (!(error instanceof OpenAIProviderError)) return undefined;
  const reason = error.message;
  const normalized: ModelRetryAdvice['normalized'] = { isNetworkError: error.reason === 'connection', isAbort: error.reason === 'aborted' };
  if (error.status !== undefined) normalized.statusCode = error.status;
  if (error.code !== undefined) normalized.errorCode = error.code;
  const withRetryAfter = error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs };
  if (error.reason === 'aborted') return { suggested: false, reason, normalized };
  if (error.reason === 'timeout' || error.reason === 'stream_interrupted') {
    return { suggested: false, replaySafety: 'unsafe', responseStarted: error.reason === 'stream_interrupted', reason, normalized };
  }
  const stateful = request.previousResponseId !== undefined || request.conversationId !== undefined;
  if (error.retryable && !stateful) return { suggested: true, reason, normalized, ...withRetryAfter };
  return { reason, normalized, ...withRetryAfter };
}
