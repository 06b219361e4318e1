import * as Effect from 'effect/Effect';
import { LazyAbort } from './lazyAbort.js';

/**
 * Runs promise-based code (a tool) with an abort signal that fires when the effect is interrupted,
 * so the work stops when the run no longer wants its result. A plain callback, not a scope: this
 * runs for every tool call. The signal is made when the code first reads it (`LazyAbort`). With
 * `follow`, another source can fire it as well; `follow` returns how to stop following.
 */
export function abortablePromise<A>(run: (abort: LazyAbort) => Promise<A>, follow?: (abort: LazyAbort) => () => void): Effect.Effect<A, unknown> {
  return Effect.callback<A, unknown>((resume) => {
    const controller = new LazyAbort();
    // Another source of cancellation (a cancelled batch of tools) may fire the signal too, while the work runs.
    const unfollow = follow?.(controller);
    try {
      run(controller).then(
        (value) => {
          unfollow?.();
          resume(Effect.succeed(value));
        },
        (error: unknown) => {
          unfollow?.();
          resume(Effect.fail(error));
        },
      );
    } catch (error) {
      unfollow?.();
      resume(Effect.fail(error));
    }
    return Effect.sync(() => controller.abort(abortReason()));
  });
}

function abortReason(): Error {
  const error = new Error('The run no longer needs this operation (cancelled, interrupted or failed).');
  error.name = 'AbortError';
  return error;
}
