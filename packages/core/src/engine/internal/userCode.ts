import * as Effect from 'effect/Effect';
import { AgentsError } from '@baton/types';
import { ExternalFailure, type RunFailure } from './failures.js';
import { inSpanContext } from './loop/span.js';

/** Runs a user callback (sync or async); its errors reach the caller unchanged. */
export function fromUserCode<A>(thunk: () => A | Promise<A>): Effect.Effect<A, RunFailure> {
  return Effect.withFiber((fiber) =>
    Effect.tryPromise({
      try: async () => inSpanContext(fiber, thunk),
      catch: (cause) => (cause instanceof AgentsError ? cause : new ExternalFailure({ cause })),
    }),
  );
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
      return Effect.fail(cause instanceof AgentsError ? cause : new ExternalFailure({ cause }));
    }
    if (Effect.isEffect(value)) {
      return (value as Effect.Effect<A, unknown>).pipe(
        Effect.mapError((cause) => (cause instanceof AgentsError ? cause : new ExternalFailure({ cause }))),
      );
    }
    return fromUserCode(() => value as A | Promise<A>);
  });
}
