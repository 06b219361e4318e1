import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';

/**
 * Gives `use` an AbortSignal that fires when the effect is interrupted or fails, so promise-based
 * code inside (a model's HTTP request, a tool) stops when the run no longer wants its result.
 */
export function withAbortSignal<A, E, R>(use: (signal: AbortSignal) => Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
  return Effect.acquireUseRelease(
    Effect.sync(() => new AbortController()),
    (controller) => use(controller.signal),
    (controller, exit) => (Exit.isSuccess(exit) ? Effect.void : Effect.sync(() => controller.abort(abortReason()))),
  );
}

function abortReason(): Error {
  const error = new Error('The run no longer needs this operation (cancelled, interrupted or failed).');
  error.name = 'AbortError';
  return error;
}
