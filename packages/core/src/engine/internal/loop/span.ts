import * as Context from 'effect/Context';
import * as Effect from 'effect/Effect';
import * as Tracer from 'effect/Tracer';
import type { RunTrace } from '../../../definitions/runTracing.js';

/** The traced run this fiber belongs to (set by the runner when a `RunTracing` is installed). */
export const CurrentRunTrace = Context.Reference<RunTrace | undefined>('@baton/core/CurrentRunTrace', { defaultValue: () => undefined });

/**
 * The agent span around the current turn: guardrail spans hang from it rather than from the turn
 * (where the reference puts them), though they run inside the turn.
 */
const CurrentAgentSpan = Context.Reference<Tracer.AnySpan | undefined>('@baton/core/CurrentAgentSpan', { defaultValue: () => undefined });

/**
 * A span's attributes as it starts, also passed as an annotation: a tracer's `span()` is called
 * before Effect sets attributes, and a tracing package needs them to describe the span it starts.
 */
export const InitialSpanAttributes = Context.Reference<Readonly<Record<string, unknown>> | undefined>('@baton/core/InitialSpanAttributes', {
  defaultValue: () => undefined,
});

function spanOptions(attributes: Record<string, unknown> | undefined, parent: Tracer.AnySpan | undefined) {
  return {
    attributes,
    captureStackTrace: false,
    ...(attributes ? { annotations: Context.make(InitialSpanAttributes, attributes) } : {}),
    ...(parent ? { parent } : {}),
  };
}

const traced = (fiber: { getRef: <A>(ref: Context.Reference<A>) => A }) => fiber.getRef(Tracer.Tracer) !== Tracer.nativeTracer;

/**
 * The loop's spans, made only when a tracer is listening. With Effect's default (native) tracer
 * nothing would ever read them, yet each one costs a span object, a copy of the fiber's context
 * and cleanup closures for as long as it is open: a run waiting for its model holds three. No
 * call-site stack either: it would point into Baton's loop, never at user code.
 *
 * Names and attributes are a contract with the tracing package (`@baton/tracing` reads them into
 * the reference's span data and OpenTelemetry's GenAI attributes): see the core README.
 */
export function span(name: string, attributes?: () => Record<string, unknown>, options: { parent?: 'agent' } = {}) {
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiber((fiber) => {
      if (!traced(fiber)) return self;
      const parent = options.parent === 'agent' ? fiber.getRef(CurrentAgentSpan) : undefined;
      return Effect.withSpan(self, name, spanOptions(attributes?.(), parent));
    });
}

/** The span of one agent's consecutive turns; guardrail spans of those turns hang from it. */
export function agentSpan(attributes: () => Record<string, unknown>) {
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiber((fiber) => {
      if (!traced(fiber)) return self;
      const withAgentSpan = Effect.flatMap(Effect.currentSpan, (current) => Effect.provideService(self, CurrentAgentSpan, current)).pipe(
        Effect.catchTag('NoSuchElementError', () => self),
      );
      return Effect.withSpan(withAgentSpan as Effect.Effect<A, E, R>, 'baton.agent', spanOptions(attributes(), undefined));
    });
}

/** Sets attributes on the current span (or the current agent span), computed only when traced. */
export function annotate(attributes: () => Record<string, unknown>, target: 'current' | 'agent' = 'current'): Effect.Effect<void> {
  return Effect.withFiber((fiber) => {
    if (!traced(fiber)) return Effect.void;
    const current = target === 'agent' ? fiber.getRef(CurrentAgentSpan) : Context.getOrUndefined(fiber.context, Tracer.ParentSpan);
    if (current?._tag === 'Span' && current.status._tag !== 'Ended') {
      for (const [key, value] of Object.entries(attributes())) current.attribute(key, value);
    }
    return Effect.void;
  });
}

/** Runs user code with the current span as the ambient one of the run's trace (getCurrentSpan() inside a tool). */
export function inSpanContext<A>(
  fiber: { getRef: <T>(ref: Context.Reference<T>) => T; readonly context: Context.Context<never> },
  thunk: () => A,
  which: 'current' | 'agent' = 'current',
): A {
  const trace = fiber.getRef(CurrentRunTrace);
  if (!trace) return thunk();
  return trace.enter(which === 'agent' ? fiber.getRef(CurrentAgentSpan) : Context.getOrUndefined(fiber.context, Tracer.ParentSpan), thunk);
}
