import * as Effect from 'effect/Effect';

/**
 * What a guardrail function may return: a value, a promise, or an Effect program. Core runs an
 * Effect in the run's own fiber, so cancelling the run (or a sibling guardrail tripping) interrupts
 * it; the program must not need services (`R = never`).
 */
export type GuardrailReturn<T> = T | Promise<T> | Effect.Effect<T, unknown, never>;

/** Settles a guardrail's return value outside a run (for `definition.run(...)`). */
export async function settle<T>(value: GuardrailReturn<T>): Promise<T> {
  if (Effect.isEffect(value)) return Effect.runPromise(value as Effect.Effect<T, unknown, never>);
  return value;
}
