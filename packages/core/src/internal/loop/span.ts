import * as Effect from 'effect/Effect';
import * as Tracer from 'effect/Tracer';

const NO_STACK_TRACE = { captureStackTrace: false } as const;

/**
 * The loop's spans, made only when a tracer is listening. With Effect's default (native) tracer
 * nothing would ever read them, yet each one costs a span object, a copy of the fiber's context
 * and cleanup closures for as long as it is open: a run waiting for its model holds three. No
 * call-site stack either: it would point into Baton's loop, never at user code.
 */
export function span(name: string, attributes?: Record<string, unknown>) {
  const withSpan = Effect.withSpan(name, attributes === undefined ? undefined : { attributes }, NO_STACK_TRACE);
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(Effect.tracer, (tracer) => (tracer === Tracer.nativeTracer ? self : withSpan(self)));
}
