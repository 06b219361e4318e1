import * as Cause from 'effect/Cause';
import * as Duration from 'effect/Duration';
import * as Effect from 'effect/Effect';
import { annotate, span, type TracingDecision } from './span.js';
import * as Exit from 'effect/Exit';
import * as Fiber from 'effect/Fiber';
import * as Option from 'effect/Option';
import {
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  OutputGuardrailTripwireTriggered,
  type AgentsError,
  type GuardrailFunctionOutput,
  type InputGuardrail,
  type InputGuardrailFunctionArgs,
  type OutputGuardrail,
  type OutputGuardrailFunctionArgs,
} from '@baton/types';
import { toPublicError, type RunFailure } from '../failures.js';
import { runGuardrailFunction } from '../userCode.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { StepRunner } from '../../../definitions/stepRunner.js';
import { inLanes, step, type Lanes } from './steps.js';
import { jsonCodec } from './stepCodecs.js';
import { noteVerdict } from './guardrailVerdicts.js';

/**
 * How a batch's guardrails run as steps: the run's step runner and the turn their keys name
 * (`t{turn}:guardrail:{kind}:{name}`); and whether the run is traced (each guardrail has a span).
 */
export interface GuardrailSteps extends TracingDecision {
  readonly runner: StepRunner | undefined;
  readonly turn: number;
}

type Kind = 'Input' | 'Output';

/** A tripped guardrail says so on its span (the run's failure marks the agent span). */
function annotateTrip(run: TracingDecision): Effect.Effect<void> {
  return annotate(run, () => ({ 'baton.guardrail.triggered': true }));
}

/** Runs one guardrail function and checks what it returned. */
function runGuardrail(
  kind: Kind,
  guardrail: { name: string; timeoutMs?: number },
  execute: () => GuardrailFunctionOutput | Promise<GuardrailFunctionOutput>,
  steps: GuardrailSteps,
): Effect.Effect<Verdict, AgentsError> {
  // A guardrail that throws its kind's tripwire error itself has that error surface as it is (as the reference does).
  const failed = (error: unknown): AgentsError =>
    error instanceof (kind === 'Input' ? InputGuardrailTripwireTriggered : OutputGuardrailTripwireTriggered) ? error : executionError(kind, guardrail.name, error);
  const key = () => `t${steps.turn}:guardrail:${kind.toLowerCase()}:${guardrail.name}`;
  const run = step(steps.runner, 'guardrail', key, jsonCodec, runGuardrailFunction(steps, execute)).pipe(
    Effect.mapError((failure) => failed(toPublicError(failure))),
    Effect.flatMap((output) => {
      const invalid = () => Effect.fail(failed(new TypeError('it must return { tripwireTriggered: boolean, outputInfo? }')));
      if (typeof output !== 'object' || output === null) return invalid();
      // The verdict is read once: the run acts on (and reports) what it saw then.
      let tripped: unknown;
      try {
        tripped = output.tripwireTriggered;
      } catch (error) {
        return Effect.fail(failed(error));
      }
      return typeof tripped === 'boolean' ? Effect.succeed({ output, tripped }) : invalid();
    }),
  );
  const traced = run.pipe(
    Effect.tap((verdict) => (verdict.tripped ? annotateTrip(steps) : Effect.void)),
    span(steps, `baton.guardrail.${kind.toLowerCase()}`, () => ({ 'baton.guardrail.name': guardrail.name, 'baton.guardrail.triggered': false }), { parent: 'agent' }),
  );
  if (guardrail.timeoutMs === undefined) return traced;
  return traced.pipe(
    Effect.timeoutOrElse({
      duration: Duration.millis(guardrail.timeoutMs),
      orElse: () => Effect.fail(failed(new Error(`timed out after ${guardrail.timeoutMs}ms`))),
    }),
  );
}

function executionError(kind: Kind, name: string, error: unknown): GuardrailExecutionError {
  return new GuardrailExecutionError(
    `${kind} guardrail "${name}" failed to complete: ${error instanceof Error ? error.message : String(error)}`,
    error instanceof Error ? error : new Error(String(error)),
  );
}

/** What a guardrail returned, and its verdict as read when it completed. */
interface Verdict {
  readonly output: GuardrailFunctionOutput;
  readonly tripped: boolean;
}

interface GuardrailBatch<G extends { name: string; timeoutMs?: number }> {
  readonly kind: Kind;
  readonly guardrails: readonly G[];
  readonly execute: (guardrail: G) => GuardrailFunctionOutput | Promise<GuardrailFunctionOutput>;
  /** Records a completed guardrail's result and returns the tripwire error it raises (when it tripped). */
  readonly recordResult: (guardrail: G, output: GuardrailFunctionOutput, tripped: boolean) => AgentsError | undefined;
  readonly onFirstFailure: Effect.Effect<void>;
  readonly steps: GuardrailSteps;
  /** Lanes shared with the model call (lane 0) of a parallel batch; else the batch's own. */
  readonly lanes?: Lanes | undefined;
}

/**
 * Runs a batch of guardrails concurrently. Every guardrail finishes and its result is recorded
 * before the batch's failure surfaces: a guardrail that threw (the first in list order) wins over
 * one that tripped, as in the reference, where a sibling's failure rejects the batch before any
 * verdict is read; else the first that tripped. `onFirstFailure` runs as soon as one trips or
 * throws, so the caller can abort the model call at once.
 */
function runGuardrailBatch<G extends { name: string; timeoutMs?: number }>(batch: GuardrailBatch<G>): Effect.Effect<void, RunFailure> {
  if (batch.guardrails.length === 0) return Effect.void;
  return Effect.gen(function* () {
    let signalled = false;
    const signal = Effect.suspend(() => {
      if (signalled) return Effect.void;
      signalled = true;
      return batch.onFirstFailure;
    });
    // With a recording step runner, the guardrails' steps start in list order.
    const lanes = batch.lanes ?? inLanes(batch.steps.runner, batch.guardrails.length);
    const firstLane = batch.lanes ? 1 : 0;
    const exits = yield* Effect.forEach(
      batch.guardrails,
      (guardrail, i) => {
        const run = runGuardrail(batch.kind, guardrail, () => batch.execute(guardrail), batch.steps).pipe(
          Effect.tap((verdict) => (verdict.tripped ? signal : Effect.void)),
          Effect.tapError(() => signal),
          Effect.exit,
        );
        return lanes ? lanes(firstLane + i, run) : run;
      },
      { concurrency: 'unbounded' },
    );
    let thrown: AgentsError | undefined;
    let tripped: AgentsError | undefined;
    exits.forEach((exit, i) => {
      if (Exit.isSuccess(exit)) {
        const guardrail = batch.guardrails[i]!;
        try {
          const tripwire = batch.recordResult(guardrail, exit.value.output, exit.value.tripped);
          if (!tripped && exit.value.tripped) tripped = tripwire;
        } catch (error) {
          // A trip whose report cannot be written (an `outputInfo` JSON cannot carry) fails the batch as a guardrail error would.
          thrown ??= executionError(batch.kind, guardrail.name, error);
        }
      } else if (!thrown) {
        thrown = errorOf(exit);
      }
    });
    const failure = thrown ?? tripped;
    if (failure) return yield* Effect.fail(failure);
  });
}

/** Runs a batch of input guardrails (see `runGuardrailBatch`). */
export function runInputGuardrails(
  guardrails: readonly InputGuardrail<any>[],
  args: InputGuardrailFunctionArgs<any>,
  record: RunRecord,
  steps: GuardrailSteps,
  onFirstFailure: Effect.Effect<void> = Effect.void,
  lanes?: Lanes,
): Effect.Effect<void, RunFailure> {
  return runGuardrailBatch({
    kind: 'Input',
    guardrails,
    steps,
    lanes,
    execute(guardrail) {
      return guardrail.execute(args);
    },
    recordResult(guardrail, output, tripped) {
      const result = { guardrail: { type: 'input' as const, name: guardrail.name }, output };
      record.inputGuardrailResults.push(result);
      if (!tripped) return undefined;
      return new InputGuardrailTripwireTriggered(`Input guardrail triggered: ${JSON.stringify(output.outputInfo ?? null)}`, result);
    },
    onFirstFailure,
  });
}

/**
 * Runs the model call beside the parallel input guardrails. A guardrail that trips or throws
 * interrupts the model call at once (its request is aborted); when the model answers first, its
 * response is held until every guardrail has passed. A guardrail failure wins over a model failure.
 */
export function withParallelGuardrails<A>(
  modelCall: Effect.Effect<A, RunFailure>,
  guardrails: readonly InputGuardrail<any>[],
  args: InputGuardrailFunctionArgs<any>,
  record: RunRecord,
  steps: GuardrailSteps,
): Effect.Effect<A, RunFailure> {
  if (guardrails.length === 0) return modelCall;
  return Effect.gen(function* () {
    // With a recording step runner, the model call's step starts first, then the guardrails'.
    const lanes = inLanes(steps.runner, guardrails.length + 1);
    const modelFiber = yield* Effect.forkChild(Effect.exit(lanes ? lanes(0, modelCall) : modelCall));
    const guardrailExit = yield* Effect.exit(runInputGuardrails(guardrails, args, record, steps, Fiber.interrupt(modelFiber), lanes));
    if (Exit.isFailure(guardrailExit)) {
      yield* Fiber.interrupt(modelFiber);
      return yield* Effect.failCause(guardrailExit.cause);
    }
    const modelExit: Exit.Exit<A, RunFailure> = yield* Fiber.join(modelFiber);
    return yield* modelExit;
  });
}

/** Runs the output guardrails of the agent that produced the final output, as one batch. */
export function runOutputGuardrails(
  guardrails: readonly OutputGuardrail<any, any>[],
  args: OutputGuardrailFunctionArgs<any, unknown>,
  record: RunRecord,
  steps: GuardrailSteps,
): Effect.Effect<void, RunFailure> {
  return runGuardrailBatch({
    kind: 'Output',
    guardrails,
    steps,
    execute(guardrail) {
      return guardrail.execute(args);
    },
    recordResult(guardrail, output, tripped) {
      const result = { guardrail: { type: 'output' as const, name: guardrail.name }, agentOutput: args.agentOutput, agent: args.agent, output };
      record.outputGuardrailResults.push(result);
      noteVerdict(result, tripped);
      if (!tripped) return undefined;
      return new OutputGuardrailTripwireTriggered(`Output guardrail triggered: ${JSON.stringify(output.outputInfo ?? null)}`, result);
    },
    onFirstFailure: Effect.void,
  });
}

function errorOf(exit: Exit.Exit<unknown, AgentsError>): AgentsError {
  const error = Exit.isFailure(exit) ? findError(exit) : undefined;
  return error ?? new GuardrailExecutionError('Guardrail was interrupted', new Error('interrupted'));
}

function findError(exit: Exit.Failure<unknown, AgentsError>): AgentsError | undefined {
  const found = Cause.findErrorOption(exit.cause);
  return Option.isSome(found) ? found.value : undefined;
}
