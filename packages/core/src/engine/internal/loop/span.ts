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

/** Whether a tracer listens to the run: decided once, when its loop starts (`LoopEnv.traced`). */
export interface TracingDecision {
  readonly traced: boolean;
}

/** Whether the fiber's tracer records spans (Effect's default, native, tracer records none that anyone reads). */
export const tracerListens = (fiber: { getRef: <A>(ref: Context.Reference<A>) => A }): boolean => fiber.getRef(Tracer.Tracer) !== Tracer.nativeTracer;

const untouched = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => self;

/**
 * The loop's spans, made only when a tracer listens to the run. With Effect's default (native)
 * tracer nothing would ever read them, yet each one costs a span object, a copy of the fiber's context
 * and cleanup closures for as long as it is open: a run waiting for its model holds three. An
 * untraced run skips them without a look at the fiber: the run decided once. No call-site stack
 * either: it would point into Baton's loop, never at user code.
 *
 * Names and attributes are a contract with the tracing package (`@baton/tracing` reads them into
 * the reference's span data and OpenTelemetry's GenAI attributes): see the core README.
 */
export function span(run: TracingDecision, name: string, attributes?: () => Record<string, unknown>, options: { parent?: 'agent' } = {}) {
  if (!run.traced) return untouched;
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiber((fiber) => {
      const parent = options.parent === 'agent' ? fiber.getRef(CurrentAgentSpan) : undefined;
      return Effect.withSpan(self, name, spanOptions(attributes?.(), parent));
    });
}

/** The span of one agent's consecutive turns; guardrail spans of those turns hang from it. */
export function agentSpan(run: TracingDecision, attributes: () => Record<string, unknown>) {
  if (!run.traced) return untouched;
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
    const withAgentSpan = Effect.flatMap(Effect.currentSpan, (current) => Effect.provideService(self, CurrentAgentSpan, current)).pipe(
      Effect.catchTag('NoSuchElementError', () => self),
    );
    return Effect.withSpan(withAgentSpan as Effect.Effect<A, E, R>, 'baton.agent', spanOptions(attributes(), undefined));
  };
}

/** Sets attributes on the current span (or the current agent span), computed only when traced. */
export function annotate(run: TracingDecision, attributes: () => Record<string, unknown>, target: 'current' | 'agent' = 'current'): Effect.Effect<void> {
  if (!run.traced) return Effect.void;
  return Effect.withFiber((fiber) => {
    const current = target === 'agent' ? fiber.getRef(CurrentAgentSpan) : Context.getOrUndefined(fiber.context, Tracer.ParentSpan);
    if (current?._tag === 'Span' && current.status._tag !== 'Ended') {
      for (const [key, value] of Object.entries(attributes())) current.attribute(key, value);
    }
    return Effect.void;
  });
}

/** Sets attributes drawn from the effect's value on the current span; an untraced run adds no step. */
export function annotateWith<A>(run: TracingDecision, attributes: (value: A) => Record<string, unknown>) {
  if (!run.traced) return untouched;
  return <E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => Effect.tap(self, (value) => annotate(run, () => attributes(value)));
}

/** Runs user code in the span that is current where it is called (see `inSpanContext`). */
export type SpanContextEntry = <A>(thunk: () => A, which?: 'current' | 'agent') => A;

const directly: SpanContextEntry = (thunk) => thunk();

/**
 * `make`, handed a way to run user code with the current span as the ambient one of the run's
 * trace. An untraced run has no trace to enter: the code runs directly and the fiber is not read.
 * `make` may be called before the effect runs: what it returns must run the user code, not `make`.
 */
export function withSpanContext<A, E, R>(run: TracingDecision, make: (enter: SpanContextEntry) => Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
  if (!run.traced) return make(directly);
  return Effect.withFiber((fiber) => make((thunk, which) => inSpanContext(fiber, thunk, which)));
}

/** Runs user code with the current span as the ambient one of the run's trace (getCurrentSpan() inside a tool). */
function inSpanContext<A>(
  fiber: { getRef: <T>(ref: Context.Reference<T>) => T; readonly context: Context.Context<never> },
  thunk: () => A,
  which: 'current' | 'agent' = 'current',
): A {
  const trace = fiber.getRef(CurrentRunTrace);
  if (!trace) return thunk();
  return trace.enter(which === 'agent' ? fiber.getRef(CurrentAgentSpan) : Context.getOrUndefined(fiber.context, Tracer.ParentSpan), thunk);
}
