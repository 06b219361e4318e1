import * as Effect from 'effect/Effect';
import { annotate, withSpanContext } from './span.js';
import {
  InvalidToolInputError,
  ToolCallError,
  ToolInterruption,
  type FunctionCallItem,
  type FunctionTool,
  type ToolCallDetails,
  type ToolEmission,
} from '@baton/types';
import { abortablePromise } from '../abort.js';
import type { RunFailure } from '../failures.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { CALL_SCOPE, type PreparedToolInput, type ScopedToolCallDetails, type ToolCallScope } from '../../../definitions/internal/toolCallScope.js';
import type { LoopEnv } from './loopEnv.js';
import { toParentEvent } from './streamEmission.js';
import { step } from './steps.js';
import { toolStepCodec, type ToolStepResult } from './stepCodecs.js';
import { nestedStepRunner } from '../../../definitions/stepRunner.js';
import { getLogger } from '../../../definitions/logger.js';
import { agentToolSourceAgent } from '../../../definitions/internal/agentToolSources.js';
import { lazySignalOf, SIGNAL_SOURCE, type LazyAbort } from '../lazyAbort.js';
import { ToolBatchCancellation } from './toolCancellation.js';

/** What the calls of one response share: its cancellation, and the caller's signal when a call may have it as its own. */
export interface ToolBatch {
  readonly cancellation: ToolBatchCancellation;
  readonly directSignal: AbortSignal | undefined;
}

/**
 * `aborted`: the call ended with the batch's cancellation (it threw the reason, or an `AbortError`),
 * what it threw, and whether a sibling's failure (not the run's caller) cancelled it.
 */
export type ToolCallResult = ToolStepResult | { type: 'interrupted'; interruption: ToolInterruption } | { type: 'aborted'; thrown: unknown; bySibling: boolean };

/**
 * The invocation is the call's `tool:{callId}` step; its result is the output (an error the tool's
 * error function answered with included) or an invalid-input rejection. An agent tool is not a step
 * of its own: its nested run's steps are, under `tool:{callId}` (so a paused nested run and its
 * events replay too).
 */
export function invokeTool(
  tool: FunctionTool<any>,
  call: FunctionCallItem,
  record: RunRecord,
  env: LoopEnv,
  resumeState: string | undefined,
  batch: ToolBatch,
  /** The arguments the tool read before the call's approval was asked about: `execute` receives them without another validation. */
  prepared?: PreparedToolInput,
): Effect.Effect<ToolCallResult, RunFailure> {
  const emit = toolEmitter(tool.name, call.callId, env);
  const scope: ToolCallScope = {
    runConfig: env.stepRunner === undefined ? env.runConfig : { ...env.runConfig, stepRunner: nestedStepRunner(env.stepRunner, `tool:${call.callId}`) },
  };
  if (prepared !== undefined) scope.preparedInput = prepared;
  const { cancellation, directSignal } = batch;
  const invocation = withSpanContext(env, (enter) =>
    abortablePromise(
      (abort) => {
        const details: ScopedToolCallDetails =
          directSignal !== undefined
            ? { toolCall: call, emit, [CALL_SCOPE]: scope, signal: directSignal }
            : lazySignalDetails(call, emit, scope, abort);
        if (record.runId !== undefined) details.runId = record.runId;
        if (resumeState !== undefined) details.resumeState = resumeState;
        scope.loopDetails = details;
        return enter(() => tool.invoke(record.context, call.arguments, details));
      },
      directSignal !== undefined ? undefined : (abort) => cancellation.enroll(abort),
    ),
  );
  // Invalid arguments are the tool's error like any other (answered by its error function, or
  // failing the run), unless the run asked for them to fail it as the model's fault.
  const raises = env.invalidToolInputBehavior === 'raise_error';
  // (Handlers are passed as arguments, not bound to names: the build renames every named function
  // it makes, and these are made for each call.)
  if (env.stepRunner === undefined || agentToolSourceAgent(tool) !== undefined) {
    // Not a step of its own: each outcome is answered in one handler.
    return Effect.matchEffect(
      invocation,
      handlers(
        (output: unknown) => noted(stepResultOf(output, scope, raises), tool, call, env),
        (error: unknown) => {
          const failed = failureOf(error, cancellation, raises);
          if (failed.type === 'answered') return noted(failed.result, tool, call, env);
          return failed.aborted !== undefined ? Effect.succeed(failed.aborted) : Effect.fail(failed.error);
        },
      ),
    );
  }
  // The step runner records what the invocation answered, or that it failed: a call the batch's
  // cancellation ended is told apart after the step.
  let aborted: AbortedCall | undefined;
  const invoked = invocation.pipe(
    Effect.map((output) => stepResultOf(output, scope, raises)),
    Effect.catch((error: unknown) => {
      const failed = failureOf(error, cancellation, raises);
      if (failed.type === 'answered') return Effect.succeed(failed.result);
      aborted = failed.aborted;
      return Effect.fail(failed.error);
    }),
  );
  return step(env.stepRunner, 'tool', () => `tool:${call.callId}`, toolStepCodec, invoked).pipe(
    Effect.catch((failure): Effect.Effect<ToolCallResult, RunFailure> => (aborted !== undefined ? Effect.succeed(aborted) : Effect.fail(failure))),
    Effect.flatMap((done) => noted(done, tool, call, env)),
  );
}

type AbortedCall = Extract<ToolCallResult, { type: 'aborted' }>;

/**
 * A call's details whose `signal` is made when the tool reads it: one literal with the getter (a
 * copy of a literal with a getter added costs V8's slow path, about twice as much).
 */
function lazySignalDetails(call: FunctionCallItem, emit: ToolCallDetails['emit'], scope: ToolCallScope, abort: LazyAbort): ScopedToolCallDetails {
  return lazySignalOf({ toolCall: call, emit, [CALL_SCOPE]: scope, [SIGNAL_SOURCE]: abort });
}

function handlers<A, B, E>(onSuccess: (value: unknown) => Effect.Effect<A, E>, onFailure: (error: unknown) => Effect.Effect<B, E>) {
  return { onSuccess, onFailure };
}

/** What the tool answered, or its invalid input when the run raises those and the error function answered one. */
function stepResultOf(output: unknown, scope: ToolCallScope, raisesInvalidInput: boolean): ToolStepResult {
  return raisesInvalidInput && scope.handledError instanceof InvalidToolInputError
    ? { type: 'invalid_input', error: scope.handledError }
    : { type: 'output', output, handledError: scope.handledError, handledByCustomFunction: scope.handledByCustomFunction, parsedInput: scope.parsedInput };
}

/**
 * What a failed invocation leaves: invalid input answered (when the run raises those), or the
 * error the run fails with, and whether the batch's cancellation ended the call (`aborted`).
 */
function failureOf(
  error: unknown,
  cancellation: ToolBatchCancellation,
  raisesInvalidInput: boolean,
): { type: 'answered'; result: ToolStepResult } | { type: 'failed'; error: ToolCallError; aborted: AbortedCall | undefined } {
  if (raisesInvalidInput && error instanceof InvalidToolInputError) return { type: 'answered', result: { type: 'invalid_input', error } };
  const aborted: AbortedCall | undefined = cancellation.isCancellationError(error) ? { type: 'aborted', thrown: error, bySibling: cancellation.bySiblingFailure } : undefined;
  return { type: 'failed', error: functionToolFailure(error), aborted };
}

/** What a function tool's call failed with, as the run reports it: whatever was thrown, a ToolCallError of its own included, is wrapped (as the reference does). */
export function functionToolFailure(error: unknown): ToolCallError {
  return new ToolCallError(`Failed to run function tools: ${String(error)}`, error instanceof Error ? error : new Error(String(error)));
}

/** An error the tool's error function answered is on the call's span, and in the log when the default function answered it. */
function noted(done: ToolCallResult, tool: FunctionTool<any>, call: FunctionCallItem, env: LoopEnv): Effect.Effect<ToolCallResult> {
  if (done.type !== 'output' || done.handledError === undefined) return Effect.succeed(done);
  const handled = done.handledError;
  return annotate(env, () => ({ 'baton.tool.error': handled, 'baton.tool.error_function': done.handledByCustomFunction ? 'custom' : 'default' })).pipe(
    Effect.andThen(done.handledByCustomFunction ? Effect.void : Effect.sync(() => logAnsweredToolError(tool.name, call.callId, handled))),
    Effect.as(done),
  );
}

/**
 * A call's `emit`. Emissions are checked even when nobody watches, so a broken tool fails the same
 * way everywhere. Straight into the run's sink (no runtime per event); waits while the consumer's
 * buffer is full. (Returned unnamed, so keepNames does not rename it for every call.)
 */
function toolEmitter(toolName: string, callId: string, env: LoopEnv): (emission: ToolEmission) => Promise<void> {
  return async (emission) => {
    const event = toParentEvent(emission, toolName, callId);
    if (!env.observed) return;
    while (!env.sink.tryOffer(event)) await env.sink.whenWritable();
  };
}

/**
 * One line for a tool error the default error function answered: the model only learns that the
 * tool failed, so without it the error would go unseen. The message is left out while tool data
 * must be kept out of logs (the default); the error itself is on the tool output item.
 */
function logAnsweredToolError(toolName: string, callId: string, error: unknown): void {
  const logger = getLogger('openai-agents:core');
  const what = logger.dontLogToolData ? nameOf(error) : `${nameOf(error)}: ${messageOf(error)}`;
  logger.warn(`Tool "${toolName}" (call ${callId}) threw ${what}; the model was told the tool failed, and the error is on the tool_call_output_item's \`error\`.`);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}
