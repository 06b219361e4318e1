import * as Effect from 'effect/Effect';
import { AgentsError } from '@baton/types';
import { ExternalFailure, type RunFailure } from './failures.js';
import { withSpanContext, type SpanContextEntry, type TracingDecision } from './loop/span.js';

/** Runs a user callback (sync or async) in the current span's context; its errors reach the caller unchanged. */
export function fromUserCode<A>(run: TracingDecision, thunk: () => A | Promise<A>): Effect.Effect<A, RunFailure> {
  return withSpanContext(run, (enter) => Effect.tryPromise({ try: entered(enter, thunk), catch: asRunFailure }));
}

/**
 * The callback run through `enter`, as a promise. Made by a function rather than written inline in
 * the options object: the build keeps function names (keepNames), and an inline arrow there is
 * renamed with a property definition on every call (measured on the per-turn path).
 */
function entered<A>(enter: SpanContextEntry, thunk: () => A | Promise<A>): () => Promise<A> {
  return async () => enter(thunk);
}

function asRunFailure(cause: unknown): RunFailure {
  return cause instanceof AgentsError ? cause : new ExternalFailure({ cause });
}

/**
 * Runs a guardrail function, which may return a value, a promise, or an Effect program (run in
 * this fiber, so interrupting the run interrupts it). Errors reach the caller unchanged.
 */
export function runGuardrailFunction<A>(run: TracingDecision, thunk: () => A | Promise<A> | Effect.Effect<A, unknown>): Effect.Effect<A, RunFailure> {
  return withSpanContext(run, (enter) =>
    Effect.suspend(() => {
      let value: A | Promise<A> | Effect.Effect<A, unknown>;
      try {
        value = enter(thunk);
      } catch (cause) {
        return Effect.fail(asRunFailure(cause));
      }
      if (Effect.isEffect(value)) return (value as Effect.Effect<A, unknown>).pipe(Effect.mapError(asRunFailure));
      return Effect.tryPromise({ try: async () => value as A | Promise<A>, catch: asRunFailure });
    }),
  );
}
