import * as Effect from 'effect/Effect';
import { AgentsError } from '@baton/types';
import { ExternalFailure, type RunFailure } from './failures.js';
import { inSpanContext } from './loop/span.js';

/** Runs a user callback (sync or async); its errors reach the caller unchanged. */
export function fromUserCode<A>(thunk: () => A | Promise<A>): Effect.Effect<A, RunFailure> {
  return Effect.withFiber((fiber) => Effect.tryPromise({ try: inContextOf(fiber, thunk), catch: asRunFailure }));
}

/**
 * The callback run in the fiber's span context, as a promise. Made by a function rather than
 * written inline in the options object: the build keeps function names (keepNames), and an inline
 * arrow there is renamed with a property definition on every call (measured on the per-turn path).
 */
function inContextOf<A>(fiber: Parameters<typeof inSpanContext>[0], thunk: () => A | Promise<A>): () => Promise<A> {
  return async () => inSpanContext(fiber, thunk);
}

function asRunFailure(cause: unknown): RunFailure {
  return cause instanceof AgentsError ? cause : new ExternalFailure({ cause });
}

/**
 * Runs a guardrail function, which may return a value, a promise, or an Effect program (run in
 * this fiber, so interrupting the run interrupts it). Errors reach the caller unchanged.
 */
export function runGuardrailFunction<A>(thunk: () => A | Promise<A> | Effect.Effect<A, unknown>): Effect.Effect<A, RunFailure> {
  return Effect.withFiber((fiber) => {
    let value: A | Promise<A> | Effect.Effect<A, unknown>;
    try {
      value = inSpanContext(fiber, thunk);
    } catch (cause) {
      return Effect.fail(asRunFailure(cause));
    }
    if (Effect.isEffect(value)) {
      return (value as Effect.Effect<A, unknown>).pipe(
        Effect.mapError(asRunFailure),
      );
    }
    return fromUserCode(() => value as A | Promise<A>);
  });
}
