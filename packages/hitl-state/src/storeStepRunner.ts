import * as Effect from 'effect/Effect';
import { defaultStepRunner, type StepRunner } from '@baton/core';
import type { CommittedStep, RunClaim, RunStateStore } from './store/runStateStore.js';

/**
 * The step runner of a resumed run: a step with a committed result returns it (decoded) and does
 * not run; any other step runs (through `inner`, default as it is) and its result is committed
 * under the claim before the loop goes on past it. So a retry replays every committed step, and
 * only the step in flight when a worker died runs again. Each step commits on its own, so of two
 * concurrent tool calls the one that finished is committed while the other still runs. A failed
 * commit (`claim_lost`, a store outage) fails the run: nothing after an uncommitted step may run.
 */
export function storeStepRunner(store: RunStateStore, claim: RunClaim, committed: readonly CommittedStep[], inner: StepRunner = defaultStepRunner): StepRunner {
  const journal = new Map(committed.map((step) => [step.key, step.result]));
  return {
    runStep: (step, effect) =>
      journal.has(step.key)
        ? Effect.sync(() => step.codec.decode(journal.get(step.key)!))
        : inner.runStep(step, effect).pipe(Effect.tap((result) => Effect.promise(() => store.commitStep(claim, { key: step.key, result: step.codec.encode(result) })))),
  };
}
