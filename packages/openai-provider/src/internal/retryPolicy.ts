import * as Duration from 'effect/Duration';
import * as Effect from 'effect/Effect';
import * as Schedule from 'effect/Schedule';
import { UserError, type ModelRetrySettings, type ModelSettings } from '@baton/types';
import type { OpenAIProviderError } from '../openaiProviderError.js';

/** The retry policy in force for one call, every field resolved. */
export interface ProviderRetryPolicy {
  readonly maxRetries: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly multiplier: number;
  readonly jitter: boolean;
}

/** Defaults: two retries, 500 ms doubling up to 8 s, with jitter. */
export const DEFAULT_RETRY_POLICY: ProviderRetryPolicy = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 8_000, multiplier: 2, jitter: true };

/** A server's `Retry-After` is honoured up to this long; a longer one is cut to it. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** `modelSettings.retry` merged over the defaults; invalid values are a `UserError`. */
export function resolveRetryPolicy(settings: ModelRetrySettings | undefined): ProviderRetryPolicy {
  if (settings === undefined) return DEFAULT_RETRY_POLICY;
  if (typeof settings !== 'object' || settings === null) throw new UserError('modelSettings.retry must be an object.');
  // With a policy the runner decides every retry; the provider makes one attempt per call.
  if (settings.policy !== undefined) return { ...DEFAULT_RETRY_POLICY, maxRetries: 0 };
  const backoff = settings.backoff ?? {};
  const policy: ProviderRetryPolicy = {
    maxRetries: settings.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    initialDelayMs: backoff.initialDelayMs ?? DEFAULT_RETRY_POLICY.initialDelayMs,
    maxDelayMs: backoff.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    multiplier: backoff.multiplier ?? DEFAULT_RETRY_POLICY.multiplier,
    jitter: backoff.jitter ?? DEFAULT_RETRY_POLICY.jitter,
  };
  if (!Number.isInteger(policy.maxRetries) || policy.maxRetries < 0) {
    throw new UserError(`modelSettings.retry.maxRetries must be a whole number >= 0, got ${String(policy.maxRetries)}.`);
  }
  for (const key of ['initialDelayMs', 'maxDelayMs'] as const) {
    if (typeof policy[key] !== 'number' || !Number.isFinite(policy[key]) || policy[key] < 0) {
      throw new UserError(`modelSettings.retry.backoff.${key} must be a number >= 0, got ${String(policy[key])}.`);
    }
  }
  if (typeof policy.multiplier !== 'number' || !Number.isFinite(policy.multiplier) || policy.multiplier < 1) {
    throw new UserError(`modelSettings.retry.backoff.multiplier must be a number >= 1, got ${String(policy.multiplier)}.`);
  }
  if (typeof policy.jitter !== 'boolean') throw new UserError('modelSettings.retry.backoff.jitter must be a boolean.');
  return policy;
}

/** `modelSettings.timeoutMs`, checked: a positive number of milliseconds that fits a timer. */
export function resolveTimeout(settings: ModelSettings): number | undefined {
  const { timeoutMs } = settings;
  if (timeoutMs === undefined) return undefined;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 2_147_483_647) {
    throw new UserError(`modelSettings.timeoutMs must be a number of milliseconds > 0 and <= 2147483647, got ${String(timeoutMs)}.`);
  }
  return timeoutMs;
}

/**
 * The retry schedule: exponential backoff from `initialDelayMs` by `multiplier`, optionally
 * jittered (x0.8 to x1.2), capped at `maxDelayMs`, at most `maxRetries` times. When the failed
 * attempt carried a `Retry-After`, that delay is used instead (up to `MAX_RETRY_AFTER_MS`).
 */
export function retrySchedule(policy: ProviderRetryPolicy): Schedule.Schedule<Duration.Duration, OpenAIProviderError> {
  const base = Schedule.setInputType<OpenAIProviderError>()(Schedule.exponential(Duration.millis(policy.initialDelayMs), policy.multiplier));
  const jittered = policy.jitter ? Schedule.jittered(base) : base;
  return jittered.pipe(
    Schedule.modifyDelay(({ duration, input }) => {
      const retryAfter = input.retryAfterMs;
      if (retryAfter !== undefined) return Effect.succeed(Duration.millis(Math.min(retryAfter, MAX_RETRY_AFTER_MS)));
      return Effect.succeed(Duration.millis(Math.min(Duration.toMillis(duration), policy.maxDelayMs)));
    }),
    Schedule.upTo({ times: policy.maxRetries }),
  );
}
