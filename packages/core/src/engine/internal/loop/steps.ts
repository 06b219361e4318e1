import * as Context from 'effect/Context';
import * as Effect from 'effect/Effect';
import type { StepCodec, StepKind, StepRunner } from '../../../definitions/stepRunner.js';
import { StartOrder } from './startOrder.js';

/** The lane a fiber's steps start in, when several fibers run steps side by side (see `StartOrder`). */
const CurrentLane = Context.Reference<{ readonly order: StartOrder; readonly lane: number } | undefined>('@baton/core/StepLane', {
  defaultValue: () => undefined,
});

/**
 * Runs `effect` as a step through the run's step runner (`undefined`: the default runner, which
 * needs neither key nor codec, so the effect runs unchanged). The key is built when the step starts.
 * Inside a lane, the step waits for its turn to start.
 */
export function step<A, E>(runner: StepRunner | undefined, kind: StepKind, key: () => string, codec: StepCodec<A>, effect: Effect.Effect<A, E>): Effect.Effect<A, E> {
  if (runner === undefined) return effect;
  return Effect.withFiber((fiber) => {
    const current = fiber.getRef(CurrentLane);
    const start = Effect.suspend(() => {
      // Marked started right before the runner sees the step, in the same synchronous slice.
      current?.order.started(current.lane);
      return runner.runStep({ key: key(), kind, codec }, effect);
    });
    return current === undefined ? start : Effect.andThen(current.order.turnOf(current.lane), start);
  });
}

export type Lanes = <A, E>(lane: number, effect: Effect.Effect<A, E>) => Effect.Effect<A, E>;

/**
 * For effects that run concurrently: puts each in its lane of one `StartOrder`, so their steps
 * start in lane order. Undefined (nothing to do) with the default runner or a single effect.
 */
export function inLanes(runner: StepRunner | undefined, count: number): Lanes | undefined {
  if (runner === undefined || count < 2) return undefined;
  const order = new StartOrder(count);
  return <A, E>(lane: number, effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    effect.pipe(
      Effect.provideService(CurrentLane, { order, lane }),
      Effect.ensuring(Effect.sync(() => order.ended(lane))),
    );
}
