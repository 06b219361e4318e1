import * as Context from 'effect/Context';
import type * as Effect from 'effect/Effect';
import * as Layer from 'effect/Layer';

/** A value a step's result is written as, so an engine can store it (JSON). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * What a step does: a model call, a tool invocation (function or MCP tool), a guardrail function,
 * a handoff callback, or an id / timestamp the loop generates.
 */
export type StepKind = 'model' | 'tool' | 'guardrail' | 'handoff' | 'id' | 'time';

/** Writes a step's result as JSON and reads it back: `decode(encode(value))` stands for `value` on replay. */
export interface StepCodec<A> {
  encode(value: A): JsonValue;
  decode(json: JsonValue): A;
}

/**
 * One effect the run performs on the outside world. `key` is stable (built from the turn, the call
 * id and names, never from timing): the same run given the same step results asks for the same keys.
 */
export interface Step<A> {
  readonly key: string;
  readonly kind: StepKind;
  readonly codec: StepCodec<A>;
}

/**
 * Runs the steps of a run. The default runs each effect as it is. A durable engine records each
 * step's result (`step.codec.encode`) when the effect succeeds, and on replay returns
 * `step.codec.decode(recorded)` without running the effect. A failed effect fails the run (a tool
 * error that answered the model is a result, not a failure): engines should not record failures,
 * so a replay runs that step again.
 */
export interface StepRunner {
  runStep<A, E>(step: Step<A>, effect: Effect.Effect<A, E>): Effect.Effect<A, E>;
  /**
   * The runner for a nested run (an agent used as a tool), whose step keys live under `scope`
   * (`tool:{callId}`). Default: this runner with keys prefixed `{scope}/`. An engine that numbers
   * steps by start order can run the nested run as a child workflow here.
   */
  nested?(scope: string): StepRunner;
}

/** The default step runner: every effect runs as it is, nothing is recorded. */
export const defaultStepRunner: StepRunner = {
  runStep: (_step, effect) => effect,
};

/** Builds a step runner from its `runStep` (and optionally `nested`). */
export function makeStepRunner(runStep: StepRunner['runStep'], nested?: (scope: string) => StepRunner): StepRunner {
  return nested ? { runStep, nested } : { runStep };
}

/** The runner for a nested run under `scope`: the runner's own `nested`, else its keys prefixed `{scope}/`. */
export function nestedStepRunner(runner: StepRunner, scope: string): StepRunner {
  if (runner.nested) return runner.nested(scope);
  const prefix = `${scope}/`;
  return {
    runStep: (step, effect) => runner.runStep({ key: prefix + step.key, kind: step.kind, codec: step.codec }, effect),
    nested: (inner) => nestedStepRunner(runner, prefix + inner),
  };
}

/**
 * The step runner as an Effect service: `runner.runEffect(...)` runs its steps through the runner
 * given here when the Runner (or the run's options) name no `stepRunner`. Nested agent-tool runs
 * use it too, under their call's scope.
 *
 * ```ts
 * runner.runEffect(agent, 'hi').pipe(Effect.provide(stepRunnerLayer(myEngine)))
 * ```
 */
export const StepRunnerService: Context.Reference<StepRunner> = Context.Reference<StepRunner>('@baton/core/StepRunner', {
  defaultValue: () => defaultStepRunner,
});

/** A layer that runs the steps of `runEffect` runs through `runner`. */
export function stepRunnerLayer(runner: StepRunner): Layer.Layer<never> {
  return Layer.succeed(StepRunnerService, runner);
}
