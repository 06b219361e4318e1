import { DBOS } from '@dbos-inc/dbos-sdk';
import { makeStepRunner, type StepRunner } from '@baton/core';
import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';

/** Runs a function in the workflow's async context (where DBOS finds the workflow it belongs to). */
export type InWorkflow = <T>(fn: () => T) => T;

/** Carries a step's own failure through DBOS, so the run sees the typed error (or interruption) it had. */
class StepFailed extends Error {
  constructor(readonly failure: Cause.Cause<unknown>) {
    super(Cause.pretty(failure));
    this.name = 'StepFailed';
  }
}

/**
 * Baton's steps as DBOS steps: each `runStep` is one `DBOS.runStep` named by the step's key (DBOS
 * checks on replay that the step at each position has the recorded name), its result stored as the
 * step codec's JSON. A committed step is not run again on replay: DBOS returns the stored JSON and
 * the codec decodes it. The run id step answers with the durable run's own id, so tools see it.
 *
 * `DBOS.runStep` takes its position synchronously when called; core starts concurrent steps in
 * call order, so positions do not depend on timing. `inWorkflow` puts the call back in the
 * workflow's async context, which Effect's scheduler does not carry.
 */
export function dbosStepRunner(runId: string, inWorkflow: InWorkflow): StepRunner {
  return makeStepRunner((step, effect) => {
    if (step.key === 'id:run') return Effect.succeed(step.codec.decode(runId));
    return Effect.flatMap(Effect.context<never>(), (context) =>
      Effect.tryPromise({
        try: (signal) =>
          inWorkflow(() =>
            DBOS.runStep(
              async () => {
                const exit = await Effect.runPromiseExitWith(context)(effect as Effect.Effect<unknown, unknown>, { signal });
                if (Exit.isFailure(exit)) throw new StepFailed(exit.cause);
                return step.codec.encode(exit.value as never);
              },
              { name: step.key },
            ),
          ),
        catch: (error) => error,
      }),
    ).pipe(
      Effect.map((json) => step.codec.decode(json)),
      // The step's own failure keeps its cause; anything else (DBOS, the database) is a defect.
      Effect.catch((error) => (error instanceof StepFailed ? Effect.failCause(error.failure as Cause.Cause<never>) : Effect.die(error))),
    ) as never;
  });
}
