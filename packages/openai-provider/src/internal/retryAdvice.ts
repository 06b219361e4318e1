import type { ModelRetryAdvice, ModelRetryAdviceRequest } from '@baton/types';
import { OpenAIProviderError } from '../openaiProviderError.js';
import { headerOf, statusOf } from './errorFields.js';

/**
 * The OpenAI models' advice for `modelSettings.retry.policy` (`retryPolicies.providerSuggested()`),
 * with the reference's rules, for the provider's own errors and for anything a custom client
 * throws:
 * - an error marked `unsafeToReplay` (a response that ended unsuccessfully, a timed-out attempt,
 *   a broken stream), or whose message says a WebSocket request may have been accepted: the
 *   request may have been processed, never replayed;
 * - the server's `x-should-retry` header decides when present (`true` is safe to replay, even
 *   for a request continuing a server-kept conversation);
 * - else 408, 409, 429, 5xx and dropped connections are worth retrying, unless the request
 *   continued a server-kept conversation (the server may already have stored it);
 * - a cancelled request is never retried.
 */
export function openAIRetryAdvice({ error, request }: ModelRetryAdviceRequest): ModelRetryAdvice | undefined {
  const reason = error instanceof Error ? { reason: error.message } : {};
  if (isRecord(error) && error.unsafeToReplay === true) {
    return { suggested: false, replaySafety: 'unsafe', ...reason, ...(error.responseStarted === true ? { responseStarted: true } : {}) };
  }
  // A WebSocket request that may have been accepted, reported by a message (an error rethrown
  // without its marks, or a custom transport's): never replayed, as the reference decides.
  if (error instanceof Error && error.message.toLowerCase().includes(MAY_HAVE_BEEN_ACCEPTED)) return { suggested: false, replaySafety: 'unsafe', ...reason };
  if (error instanceof OpenAIProviderError) return providerErrorAdvice(error, request, reason);
  const hint = headerOf(error, 'x-should-retry')?.toLowerCase().trim();
  if (hint === 'true') return { suggested: true, replaySafety: 'safe', ...reason };
  if (hint === 'false') return { suggested: false, ...reason };
  const status = statusOf(error);
  if (!isStateful(request) && status !== undefined && isRetryableStatusCode(status)) return { suggested: true, ...reason };
  return undefined;
}

function providerErrorAdvice(error: OpenAIProviderError, request: ModelRetryAdviceRequest['request'], reason: { reason?: string }): ModelRetryAdvice {
  const normalized: ModelRetryAdvice['normalized'] = { isNetworkError: error.reason === 'connection', isAbort: error.reason === 'aborted' };
  if (error.status !== undefined) normalized.statusCode = error.status;
  if (error.code !== undefined) normalized.errorCode = error.code;
  const withRetryAfter = error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs };
  if (error.reason === 'aborted') return { suggested: false, ...reason, normalized };
  if (error.reason === 'timeout' || error.reason === 'stream_interrupted') {
    return { suggested: false, replaySafety: 'unsafe', responseStarted: error.reason === 'stream_interrupted', ...reason, normalized };
  }
  const hint = error.shouldRetryHeader;
  if (hint === 'true') return { suggested: true, replaySafety: 'safe', ...reason, normalized, ...withRetryAfter };
  if (hint === 'false') return { suggested: false, ...reason, normalized };
  if (error.retryable && !isStateful(request)) return { suggested: true, ...reason, normalized, ...withRetryAfter };
  return { ...reason, normalized, ...withRetryAfter };
}

/** How the reference's WebSocket transport says a request it sent may have been processed (matched lower-cased). */
const MAY_HAVE_BEEN_ACCEPTED = 'the request may have been accepted, so the sdk will not automatically retry this websocket request.';

/** The statuses OpenAI's own client retries when the server does not say. */
export function isRetryableStatusCode(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function isStateful(request: ModelRetryAdviceRequest['request']): boolean {
  return Boolean(request.previousResponseId || request.conversationId);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
