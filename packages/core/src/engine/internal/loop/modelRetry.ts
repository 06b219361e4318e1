import * as Clock from 'effect/Clock';
import * as Duration from 'effect/Duration';
import * as Effect from 'effect/Effect';
import {
  ModelTimeoutError,
  UserError,
  type Model,
  type ModelRequest,
  type ModelRetryAdvice,
  type ModelRetryBackoffSettings,
  type ModelRetryNormalizedError,
  type RetryPolicyContext,
} from '@baton/types';
import { decisionOf, isReplaySafe } from '../../../providers/retryPolicies.js';
import { ExternalFailure } from '../failures.js';

/** Backoff defaults when a policy retries without naming a delay (the reference's). */
const DEFAULT_BACKOFF: Required<ModelRetryBackoffSettings> = { initialDelayMs: 250, maxDelayMs: 2_000, multiplier: 2, jitter: true };

/** The progress of a call that produces no stream events. */
export const NO_STREAM_PROGRESS: RetryScope['progress'] = Object.freeze({ producedEvents: false });

export interface RetryScope {
  readonly model: Model;
  readonly request: ModelRequest;
  readonly stream: boolean;
  /** Whether the failed attempt already produced stream events (a retry would show them twice): read when it failed. */
  readonly progress: { readonly producedEvents: boolean };
}

/**
 * Retries a model call as `modelSettings.retry.policy` decides. Safety comes before the policy: a
 * cancelled request, or a streamed one that already produced events, is never retried; a request
 * the provider calls unsafe to replay, or one that continues a server-kept conversation, is retried
 * only when the provider says replaying is safe or the policy approves the unsafe replay. The wait
 * between attempts is interruptible: cancelling the run ends it at once.
 */
export function withModelRetries<A>(attempt: Effect.Effect<A, ExternalFailure>, scope: RetryScope): Effect.Effect<A, ExternalFailure> {
  const settings = scope.request.modelSettings?.retry;
  if (settings?.policy === undefined) return attempt;
  const maxRetries = checkedMaxRetries(settings.maxRetries);
  const loop = (failedAttempts: number): Effect.Effect<A, ExternalFailure> =>
    attempt.pipe(
      Effect.catch((failure: ExternalFailure) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((now) =>
            Effect.tryPromise({
              try: () => retryDelay(failure.cause, failedAttempts + 1, maxRetries, scope, now),
              catch: (cause) => new ExternalFailure({ cause }),
            }),
          ),
        ).pipe(
          Effect.flatMap((delayMs) =>
            delayMs === undefined ? Effect.fail(failure) : Effect.sleep(Duration.millis(delayMs)).pipe(Effect.andThen(loop(failedAttempts + 1))),
          ),
        ),
      ),
    );
  return loop(0);
}

/** The delay before the next attempt, or undefined when the failure stands. */
async function retryDelay(error: unknown, attempt: number, maxRetries: number, scope: RetryScope, now: number): Promise<number | undefined> {
  if (attempt > maxRetries) return undefined;
  const { model, request, stream } = scope;
  const advice = await model.getRetryAdvice?.({ request, error, stream, attempt });
  const normalized = normalizeRetryError(error, request.signal, advice, now);
  const replaySafety = advice?.replaySafety ?? 'unknown';
  if (normalized.isAbort || scope.progress.producedEvents || (stream && replaySafety === 'unsafe')) return undefined;
  const statefulRequest = request.previousResponseId !== undefined || request.conversationId !== undefined;
  const context: RetryPolicyContext = {
    error,
    attempt,
    maxRetries,
    stream,
    normalized,
    replaySafety,
    statefulRequest,
    ...(advice !== undefined ? { providerAdvice: advice } : {}),
    ...(advice?.responseStarted !== undefined ? { responseStarted: advice.responseStarted } : {}),
    ...(request.previousResponseId !== undefined ? { previousResponseId: request.previousResponseId } : {}),
    ...(request.conversationId !== undefined ? { conversationId: request.conversationId } : {}),
  };
  const decision = decisionOf(await request.modelSettings!.retry!.policy!(context));
  if (!decision.retry) return undefined;
  const safe = isReplaySafe(decision) || replaySafety === 'safe';
  if (statefulRequest && !(safe || (decision.approveUnsafeReplay === true && replaySafety === 'unsafe'))) return undefined;
  if (replaySafety === 'unsafe' && !(safe || decision.approveUnsafeReplay === true)) return undefined;
  return decision.delayMs ?? normalized.retryAfterMs ?? backoffDelay(attempt, request.modelSettings!.retry!.backoff);
}

function checkedMaxRetries(maxRetries: unknown): number {
  if (maxRetries === undefined) return 0;
  if (typeof maxRetries !== 'number' || !Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new UserError(`modelSettings.retry.maxRetries must be a whole number >= 0, got ${String(maxRetries)}.`);
  }
  return maxRetries;
}

function backoffDelay(attempt: number, backoff: ModelRetryBackoffSettings | undefined): number {
  const { initialDelayMs, maxDelayMs, multiplier, jitter } = { ...DEFAULT_BACKOFF, ...backoff };
  const capped = Math.min(initialDelayMs * multiplier ** Math.max(0, attempt - 1), maxDelayMs);
  return jitter ? Math.round(capped * (0.875 + Math.random() * 0.25)) : capped;
}

const NETWORK_ERROR_NAMES = new Set(['APIConnectionError', 'APIConnectionTimeoutError', 'FetchError']);
const NETWORK_ERROR_CODES = new Set([
  'ECONNABORTED',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);
const NETWORK_MESSAGES = ['fetch failed', 'network error', 'connection error', 'socket hang up'];

/** What the policy is told about a failure: read from the error (and its causes), then the provider's facts over it. */
export function normalizeRetryError(error: unknown, signal: AbortSignal | undefined, advice: ModelRetryAdvice | undefined, now: number): ModelRetryNormalizedError {
  const chain = causeChain(error);
  const statusCode = firstOf(chain, (e) => (typeof e.statusCode === 'number' ? e.statusCode : typeof e.status === 'number' ? e.status : undefined));
  const errorCode = firstOf(chain, (e) => (typeof e.code === 'string' ? e.code : typeof e.errorCode === 'string' ? e.errorCode : undefined));
  const retryAfterMs = advice?.retryAfterMs ?? firstOf(chain, (e) => (typeof e.retryAfterMs === 'number' ? e.retryAfterMs : retryAfterFromHeaders(headersOf(e), now)));
  const isNetworkError = chain.some(
    (e) =>
      NETWORK_ERROR_NAMES.has(String(e.name)) ||
      (typeof e.code === 'string' && NETWORK_ERROR_CODES.has(e.code)) ||
      (typeof e.message === 'string' && (e.message === 'terminated' || NETWORK_MESSAGES.some((m) => (e.message as string).toLowerCase().includes(m)))),
  );
  // A timed-out attempt is no abort, whatever the provider threw as its timer aborted it (as the reference normalizes it).
  const isModelTimeout = error instanceof ModelTimeoutError;
  const isAbort = !isModelTimeout && (signal?.aborted === true || chain.some((e) => e.name === 'AbortError'));
  const normalized: ModelRetryNormalizedError = { isNetworkError, isAbort };
  if (statusCode !== undefined) normalized.statusCode = statusCode;
  if (errorCode !== undefined) normalized.errorCode = errorCode;
  if (retryAfterMs !== undefined) normalized.retryAfterMs = retryAfterMs;
  // The provider may add facts, but not clear the evidence of an abort.
  return { ...normalized, ...advice?.normalized, isAbort: !isModelTimeout && (isAbort || advice?.normalized?.isAbort === true) };
}

type ErrorLike = Record<string, unknown>;

function causeChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (let e = error; typeof e === 'object' && e !== null && chain.length < 8 && !chain.includes(e as ErrorLike); e = (e as ErrorLike).cause) {
    chain.push(e as ErrorLike);
  }
  return chain;
}

function firstOf<T>(chain: readonly ErrorLike[], read: (e: ErrorLike) => T | undefined): T | undefined {
  for (const e of chain) {
    const value = read(e);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Response headers as HTTP clients attach them: `headers` / `response.headers` (`Headers`), or `responseHeaders` (either form). */
function headersOf(error: ErrorLike): Headers | Record<string, unknown> | undefined {
  const isHeaders = (value: unknown): value is Headers => typeof Headers !== 'undefined' && value instanceof Headers;
  if (isHeaders(error.headers)) return error.headers;
  if (isHeaders(error.responseHeaders)) return error.responseHeaders;
  if (typeof error.responseHeaders === 'object' && error.responseHeaders !== null) return error.responseHeaders as Record<string, unknown>;
  const response = error.response as ErrorLike | undefined;
  return isHeaders(response?.headers) ? response.headers : undefined;
}

/** `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in milliseconds; undefined when absent or invalid. */
export function retryAfterFromHeaders(headers: Headers | Record<string, unknown> | undefined, now: number): number | undefined {
  const read = (name: string): string | undefined => {
    if (headers === undefined) return undefined;
    if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
    return typeof entry?.[1] === 'string' ? entry[1] : undefined;
  };
  const ms = Number(read('retry-after-ms'));
  if (read('retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const after = read('retry-after');
  if (after === undefined) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const at = Date.parse(after);
  return Number.isNaN(at) || at <= now ? undefined : at - now;
}
