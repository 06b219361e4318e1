import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';

/**
 * `Effect.flatMap` that continues at once when `effect` already holds its value (`Effect.succeed`
 * is an `Exit`): most of a turn's steps answer synchronously (no MCP server, no computer, nothing
 * to screen), and each of those would otherwise cost a fiber step. Call it where the effect is
 * being run (inside `Effect.suspend` or another continuation), since `f` may run right away.
 */
export function flatMapNow<A, E, R, B, E2, R2>(effect: Effect.Effect<A, E, R>, f: (value: A) => Effect.Effect<B, E2, R2>): Effect.Effect<B, E | E2, R | R2> {
  return Exit.isExit(effect) && Exit.isSuccess(effect) ? f(effect.value as A) : Effect.flatMap(effect, f);
}
