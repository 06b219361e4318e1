import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import * as Fiber from 'effect/Fiber';
import type { LazyAbort } from '../lazyAbort.js';
import { isSiblingFailureReason } from './siblingFailure.js';

/**
 * The cancellation of one batch of function tool calls. When the run is cancelled (the caller's
 * signal, a stream consumer's cancel, an Effect interruption) while its tools run, the batch is
 * not torn down: the calls in flight see their `signal` fire and the run waits for them to settle,
 * so no tool keeps working after the run has reported its end; the calls not started yet are not
 * started. Each call then has an output in history (its own, or an incomplete `aborted` one), so a
 * resumed run neither runs them again nor sends the model a call without its output.
 */
export class ToolBatchCancellation {
  #cancelled = false;
  #reason: unknown;
  /** The calls in flight that follow the batch (made at the first: a call given the caller's signal enrolls none). */
  #calls: Set<LazyAbort> | undefined;

  /** `runSignal`: the caller's signal, whose firing cancels the batch even before the run's fiber hears of it. */
  constructor(readonly runSignal: AbortSignal | undefined) {}

  /** Whether a sibling call's failure cancelled the batch (\`settleBatch\`), not the run's caller. */
  get bySiblingFailure(): boolean {
    return this.#cancelled && isSiblingFailureReason(this.#reason);
  }

  get cancelled(): boolean {
    return this.#cancelled || this.runSignal?.aborted === true;
  }

  /** Why: the caller's reason when the caller cancelled, else the reason the batch was cancelled with. */
  get reason(): unknown {
    return this.#cancelled ? this.#reason : this.runSignal?.reason;
  }

  cancel(reason: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reason = this.runSignal?.aborted ? this.runSignal.reason : reason;
    const calls = this.#calls;
    this.#calls = undefined;
    if (calls !== undefined) for (const call of calls) call.abort(reason);
  }

  /** Makes a call's abort follow the batch's; the returned function ends that (the call settled). */
  enroll(call: LazyAbort): () => void {
    if (this.cancelled) {
      call.abort(this.reason);
      return () => undefined;
    }
    (this.#calls ??= new Set()).add(call);
    return () => void this.#calls?.delete(call);
  }

  /**
   * Whether a call's failure is the cancellation itself (the reason, or an `AbortError` such as a
   * timer or fetch aborted by the call's signal throws), rather than an error of the tool's own.
   */
  isCancellationError(error: unknown): boolean {
    if (!this.cancelled) return false;
    if (error === this.reason) return true;
    if (typeof error !== 'object' || error === null) return false;
    return (error as { name?: unknown }).name === 'AbortError' || (error as { cause?: unknown }).cause === this.reason;
  }
}

/**
 * Runs `batch` in a fiber of its own and waits for it. When the waiting fiber is interrupted, the
 * batch is cancelled (its calls' signals fire) and drained: the interruption goes on only once
 * every started call has settled, after `onDrained` has kept what the batch produced.
 */
export function drainOnInterrupt<A, E, R>(
  cancellation: ToolBatchCancellation,
  batch: Effect.Effect<A, E, R>,
  onDrained: (result: A) => Effect.Effect<void>,
): Effect.Effect<A, E, R> {
  return Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(Effect.forkChild(batch, { startImmediately: true }), (fiber) =>
      restore(Fiber.join(fiber)).pipe(
        Effect.onInterrupt(() =>
          Effect.sync(() => cancellation.cancel(cancellationReason())).pipe(
            Effect.andThen(Fiber.await(fiber)),
            Effect.flatMap((exit) => (Exit.isSuccess(exit) ? onDrained(exit.value) : Effect.void)),
          ),
        ),
      ),
    ),
  );
}

function cancellationReason(): Error {
  const error = new Error('The run was cancelled while this tool ran.');
  error.name = 'AbortError';
  return error;
}
