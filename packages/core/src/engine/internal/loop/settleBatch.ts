import type * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import type { ToolBatchCancellation } from './toolCancellation.js';
import { siblingFailureReason } from './siblingFailure.js';

/**
 * Runs work side by side (the calls of one response, or its tool categories: function tools and
 * the computer's calls) without tearing any of it down when one part fails. The first failure
 * cancels the batch: the calls in flight see their `signal` fire (a computer call stops at its next
 * step), the ones still queued do not start. Every started part is then waited for, so no tool
 * keeps working after the run has reported its end, and the batch fails with that first failure
 * (a later failure, often the cancellation's own echo, is dropped).
 */
export function settleBatch<T, A, E, R>(
  items: readonly T[],
  run: (item: T, index: number) => Effect.Effect<A, E, R>,
  cancellation: ToolBatchCancellation,
  concurrency: number | 'unbounded',
): Effect.Effect<A[], E, R> {
  return Effect.suspend(() => {
    let first: Cause.Cause<E> | undefined;
    const settledEach = Effect.forEach(
      items,
      (item, index) =>
        Effect.exit(run(item, index)).pipe(
          Effect.tap((exit) =>
            Effect.sync(() => {
              if (Exit.isSuccess(exit) || first !== undefined) return;
              first = exit.cause;
              cancellation.cancel(siblingFailureReason());
            }),
          ),
        ),
      { concurrency },
    );
    return Effect.flatMap(settledEach, (exits) => {
      if (first !== undefined) return Effect.failCause(first);
      return Effect.succeed(exits.map((exit) => (exit as Exit.Success<A, E>).value));
    });
  });
}
