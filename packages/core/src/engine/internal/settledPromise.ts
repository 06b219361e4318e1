import * as Effect from 'effect/Effect';
import { LazyAbort } from './lazyAbort.js';

/**
 * Like `Effect.tryPromise`, but interruption aborts the signal and then waits until the promise
 * has really settled: a run that is cancelled ends only when the work it started has ended, even
 * when that work ignores the abort. The signal is made when the work first reads it (`LazyAbort`).
 */
export function settledPromise<A, E>(
  run: (abort: LazyAbort) => Promise<A>,
  onError: (cause: unknown) => E,
  /**
   * Told how the promise settled after the interruption aborted it: what it rejected with (the
   * callee's own abort error, say), or undefined when it resolved all the same.
   */
  onAbortedSettled?: (rejection: unknown) => void,
  /** The reason the signal aborts with (undefined: the default \`AbortError\`). */
  abortReason?: () => unknown,
): Effect.Effect<A, E> {
  return Effect.callback<A, E>((resume) => {
    const controller = new LazyAbort();
    let promise: Promise<A>;
    try {
      promise = run(controller);
    } catch (cause) {
      resume(Effect.fail(onError(cause)));
      return;
    }
    promise.then(
      (value) => resume(Effect.succeed(value)),
      (cause: unknown) => resume(Effect.fail(onError(cause))),
    );
    return Effect.promise(() => {
      controller.abort(abortReason?.());
      return promise.then(
        () => onAbortedSettled?.(undefined),
        (cause: unknown) => onAbortedSettled?.(cause),
      );
    });
  });
}
