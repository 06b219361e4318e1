import * as Effect from 'effect/Effect';

const NO_STACK_TRACE = { captureStackTrace: false } as const;

/**
 * The loop's spans. Without the call-site stack Effect captures for each span by default: it
 * would point into Baton's own loop, never at user code, and costs an `Error` per span that lives
 * as long as the span (a large share of a run's allocations per turn).
 */
export function span(name: string, attributes?: Record<string, unknown>) {
  return Effect.withSpan(name, attributes === undefined ? undefined : { attributes }, NO_STACK_TRACE);
}
