import { DBOS } from '@dbos-inc/dbos-sdk';
import { makeStepRunner, type StepRunner } from '@baton/core';
import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import { knownClasses, StepFailed, stepFailureOf, type ErrorClass } from './stepFailure.js';
import { fromStepRecord, toStepRecord } from './stepRecord.js';

/** Runs a function in the workflow's async context (where DBOS finds the workflow it belongs to). */
export type InWorkflow = <T>(fn: () => T) => T;

/**
 * Baton's steps as DBOS steps: each `runStep` is one `DBOS.runStep` named by the step's key (DBOS
 * checks on replay that the step at each position has the recorded name), its result stored as the
 * step codec's JSON, as text (`stepRecord.ts`: DBOS's serializer would walk an object three times).
 * A committed step is not run again on replay: DBOS returns the stored JSON and the codec decodes it. A failed step is recorded too (DBOS records failures) with its cause, so a
 * replay fails the same way, with errors of the same classes and fields (`stepFailure.ts`). The run
 * id step answers with the durable run's own id, so tools see it.
 *
 * `DBOS.runStep` takes its position synchronously when called; core starts concurrent steps in
 * call order, so positions do not depend on timing. `inWorkflow` puts the call back in the
 * workflow's async context, which Effect's scheduler does not carry. `beforeStep` is awaited by each
 * step's body before it runs (not by a replayed step, whose body does not run): the workflow's
 * graph check (`graphGate.ts`).
 */
export function dbosStepRunner(
  runId: string,
  inWorkflow: InWorkflow,
  errorClasses: ReadonlyMap<string, ErrorClass> = knownClasses(),
  beforeStep: () => Promise<void> = async () => {},
): StepRunner {
  return makeStepRunner((step, effect) => {
    if (step.key === 'id:run') return Effect.succeed(step.codec.decode(runId));
    return Effect.flatMap(Effect.context<never>(), (context) =>
      Effect.tryPromise({
        try: (signal) =>
          inWorkflow(() =>
            DBOS.runStep(
              async () => {
                await beforeStep();
                const exit = await Effect.runPromiseExitWith(context)(effect as Effect.Effect<unknown, unknown>, { signal });
                if (Exit.isFailure(exit)) throw new StepFailed(exit.cause);
                return toStepRecord(step.codec.encode(exit.value as never));
              },
              { name: step.key },
            ),
          ),
        catch: (error) => error,
      }),
    ).pipe(
      Effect.map((recorded) => step.codec.decode(fromStepRecord(recorded))),
      // The step's own failure keeps its cause (a replay gets the recorded one back, its errors of the
      // same classes); anything else (DBOS, the database) is a defect.
      Effect.catch((error) => {
        const failure = stepFailureOf(error, errorClasses);
        return failure ? Effect.failCause(failure as Cause.Cause<never>) : Effect.die(error);
      }),
    ) as never;
  });
}
