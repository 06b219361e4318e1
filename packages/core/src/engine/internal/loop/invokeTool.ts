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
import { CALL_SCOPE, type ScopedToolCallDetails, type ToolCallScope } from '../../../definitions/internal/toolCallScope.js';
import type { LoopEnv } from './loopEnv.js';
import { toParentEvent } from './streamEmission.js';
import { step } from './steps.js';
import { toolStepCodec, type ToolStepResult } from './stepCodecs.js';
import { nestedStepRunner } from '../../../definitions/stepRunner.js';
import { getLogger } from '../../../definitions/logger.js';
import { agentToolSourceAgent } from '../../../definitions/internal/agentToolSources.js';
import { withLazySignal } from '../lazyAbort.js';
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
): Effect.Effect<ToolCallResult, RunFailure> {
  const emit = toolEmitter(tool.name, call.callId, env);
  const scope: ToolCallScope = {
    runConfig: env.stepRunner === undefined ? env.runConfig : { ...env.runConfig, stepRunner: nestedStepRunner(env.stepRunner, `tool:${call.callId}`) },
  };
  const { cancellation, directSignal } = batch;
  const invocation = withSpanContext(env, (enter) =>
    abortablePromise(
      (abort) => {
        const details: ScopedToolCallDetails =
          directSignal !== undefined
            ? { toolCall: call, emit, [CALL_SCOPE]: scope, signal: directSignal }
            : withLazySignal({ toolCall: call, emit, [CALL_SCOPE]: scope } as Omit<ScopedToolCallDetails, 'signal'>, abort);
        if (record.runId !== undefined) details.runId = record.runId;
        if (resumeState !== undefined) details.resumeState = resumeState;
        scope.loopDetails = details;
        return enter(() => tool.invoke(record.context, call.arguments, details));
      },
      directSignal !== undefined ? undefined : (abort) => cancellation.enroll(abort),
    ),
  );
  // Set when the call failed with the batch's cancellation: it ends `aborted`, not as the run's error.
  let aborted: { type: 'aborted'; thrown: unknown; bySibling: boolean } | undefined;
  // Invalid arguments are the tool's error like any other (answered by its error function, or
  // failing the run), unless the run asked for them to fail it as the model's fault.
  const raisesInvalidInput = env.invalidToolInputBehavior === 'raise_error';
  const outputOf = (output: unknown): ToolStepResult =>
    raisesInvalidInput && scope.handledError instanceof InvalidToolInputError
      ? { type: 'invalid_input', error: scope.handledError }
      : { type: 'output', output, handledError: scope.handledError, handledByCustomFunction: scope.handledByCustomFunction };
  const failureOf = (error: unknown): { result: ToolStepResult } | { error: ToolCallError } => {
    if (cancellation.isCancellationError(error)) aborted = { type: 'aborted', thrown: error, bySibling: cancellation.bySiblingFailure };
    return raisesInvalidInput && error instanceof InvalidToolInputError
      ? { result: { type: 'invalid_input', error } }
      : // Whatever the tool threw, a ToolCallError of its own included, is wrapped (as the reference does).
        { error: new ToolCallError(`Failed to run function tools: ${String(error)}`, error instanceof Error ? error : new Error(String(error))) };
  };
  const noted = (done: ToolCallResult): Effect.Effect<ToolCallResult> => {
    if (done.type !== 'output' || done.handledError === undefined) return Effect.succeed(done);
    const handled = done.handledError;
    return annotate(env, () => ({ 'baton.tool.error': handled, 'baton.tool.error_function': done.handledByCustomFunction ? 'custom' : 'default' })).pipe(
      Effect.andThen(done.handledByCustomFunction ? Effect.void : Effect.sync(() => logAnsweredToolError(tool.name, call.callId, handled))),
      Effect.as(done),
    );
  };
  if (env.stepRunner === undefined || agentToolSourceAgent(tool) !== undefined) {
    // Not a step of its own: each outcome is answered in one handler.
    return Effect.matchEffect(invocation, {
      onSuccess: (output) => noted(outputOf(output)),
      onFailure: (error) => {
        const failed = failureOf(error);
        if ('result' in failed) return noted(failed.result);
        return aborted !== undefined ? Effect.succeed(aborted) : Effect.fail(failed.error);
      },
    });
  }
  // The step runner records what the invocation answered, or that it failed: the cancellation is
  // told apart after the step.
  const invoked = invocation.pipe(
    Effect.map(outputOf),
    Effect.catch((error: unknown) => {
      const failed = failureOf(error);
      return 'result' in failed ? Effect.succeed(failed.result) : Effect.fail(failed.error);
    }),
  );
  return step(env.stepRunner, 'tool', () => `tool:${call.callId}`, toolStepCodec, invoked).pipe(
    Effect.catch((failure): Effect.Effect<ToolCallResult, RunFailure> => (aborted !== undefined ? Effect.succeed(aborted) : Effect.fail(failure))),
    Effect.flatMap(noted),
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
