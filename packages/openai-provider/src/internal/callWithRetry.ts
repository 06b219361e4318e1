import * as Cause from 'effect/Cause';
import * as Duration from 'effect/Duration';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import type { ModelSettings } from '@baton/types';
import { OpenAIProviderError, type OpenAIApi } from '../openaiProviderError.js';
import { resolveRetryPolicy, resolveTimeout, retrySchedule } from './retryPolicy.js';
import { abortedError, label, toProviderError } from './toProviderError.js';

export interface CallOptions {
  readonly api: OpenAIApi;
  readonly settings: ModelSettings;
  /** The model request's signal: aborting it aborts the HTTP request and any wait between attempts. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs one API call with the provider's single retry policy, as an Effect program: each attempt
 * gets `modelSettings.timeoutMs` (when set) and an abort signal that fires on timeout, on
 * interruption and on `request.signal`; retryable failures (429, 408, 409, 5xx, connection errors,
 * timeouts) are retried on the backoff schedule from `modelSettings.retry`, honouring
 * `Retry-After`. The last failure is thrown as an `OpenAIProviderError` with its attempt count.
 *
 * `attempt` receives the signal to hand to the `openai` client; for a stream it should keep using
 * that signal after it returns (the signal stays live until `request.signal` fires).
 */
export async function callWithRetry<A>(attempt: (signal: AbortSignal) => Promise<A>, options: CallOptions): Promise<A> {
  const { api, settings, signal } = options;
  const policy = resolveRetryPolicy(settings.retry);
  const timeoutMs = resolveTimeout(settings);
  if (signal?.aborted) throw abortedError(api, signal.reason);
  let attempts = 0;
  const once = Effect.tryPromise({
    try: (interrupted) => {
      attempts += 1;
      return attempt(signal === undefined ? interrupted : AbortSignal.any([signal, interrupted]));
    },
    catch: (error) => toProviderError(error, { api, phase: 'request', signal }),
  });
  const timed =
    timeoutMs === undefined
      ? once
      : once.pipe(
          Effect.timeoutOrElse({
            duration: Duration.millis(timeoutMs),
            orElse: () => Effect.fail(timeoutError(api, timeoutMs)),
          }),
        );
  const program = timed.pipe(Effect.retry({ schedule: retrySchedule(policy), while: (error) => error.retryable }));
  const exit = await Effect.runPromiseExit(program, signal === undefined ? undefined : { signal });
  if (Exit.isSuccess(exit)) return exit.value;
  if (signal?.aborted || Cause.hasInterruptsOnly(exit.cause)) throw abortedError(api, signal?.reason);
  const error = Cause.squash(exit.cause);
  if (error instanceof OpenAIProviderError) {
    error.attempts = attempts;
    throw error;
  }
  throw error;
}

export function timeoutError(api: OpenAIApi, timeoutMs: number): OpenAIProviderError {
  return new OpenAIProviderError({
    reason: 'timeout',
    api,
    message: `OpenAI ${label(api)} request timed out after ${timeoutMs}ms.`,
    retryable: true,
  });
}
