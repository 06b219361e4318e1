import * as Clock from 'effect/Clock';
import * as Effect from 'effect/Effect';
import { annotate, inSpanContext, span } from './span.js';
import {
  InvalidToolInputError,
  ModelBehaviorError,
  RunToolApprovalItem,
  RunToolCallOutputItem,
  ToolCallError,
  ToolInterruption,
  ToolStreamEndEvent,
  ToolStreamStartEvent,
  type FunctionCallItem,
  type FunctionTool,
  type ToolCallDetails,
  type ToolEmission,
} from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { abortablePromise } from '../abort.js';
import { toPublicError, type RunFailure } from '../failures.js';
import { fromUserCode } from '../userCode.js';
import { functionCallResult, itemEvent, toSmartString, toolCallOutput } from '../../../state/internal/items.js';
import { capToolOutput } from './capToolOutput.js';
import { pendingRunKey, type RunRecord } from '../../../state/internal/runRecord.js';
import { attachCallScope, type ToolCallScope } from '../../../definitions/internal/toolCallScope.js';
import { formatToolError } from '../formatToolError.js';
import { TOOL_APPROVAL_REJECTION_MESSAGE, toolNotFoundMessage } from '../../../definitions/toolErrorFormatter.js';
import { defaultToolErrorFunction } from '../../../definitions/tool.js';
import type { ToolRun } from './classifyResponse.js';
import type { ToolRunOutcome } from './toolRunOutcome.js';
import { executeLocalToolRun, type LocalToolRun } from './localToolRuns.js';
import type { LoopEnv } from './loopEnv.js';
import { toParentEvent } from './streamEmission.js';
import { toolEnded, toolStarted } from './lifecycleHooks.js';
import { runToolInputGuardrails, runToolOutputGuardrails } from './toolGuardrails.js';
import { inLanes, step } from './steps.js';
import { numberCodec, toolStepCodec, type ToolStepResult } from './stepCodecs.js';
import { nestedStepRunner } from '../../../definitions/stepRunner.js';
import { getLogger } from '../../../definitions/logger.js';
import { agentToolSourceAgent } from '../../../definitions/internal/agentToolSources.js';
import { withLazySignal } from '../lazyAbort.js';
import { ToolBatchCancellation, drainOnInterrupt } from './toolCancellation.js';
import { settleBatch } from './settleBatch.js';
import { localCallNotStarted } from './localCallsNotStarted.js';
import { executeComputerCall } from './executeComputerCall.js';

export const DEFAULT_REJECTION_MESSAGE = TOOL_APPROVAL_REJECTION_MESSAGE;

export type { ToolRunOutcome };

/**
 * Runs the tool calls of one response concurrently: approval, tool input guardrails, the tool,
 * tool output guardrails. Each output is announced as soon as it exists, and the outputs enter
 * history in call order (so history does not depend on timing). The computer's calls run beside
 * them, one at a time (their actions depend on each other). A call (or the computer's category)
 * that fails the run cancels the others (their `signal` fires, the computer stops at its next step,
 * queued calls do not start) and the run fails with that first failure only once they have settled
 * (`settleBatch`). Then the shell and apply-patch calls run one at a time in response order; the
 * outputs enter history as functions, computer, shell and apply-patch. A run cancelled while its
 * function tools or computer run waits for the calls in flight, starts no other, and keeps an
 * output for each call before it ends (`ToolBatchCancellation`); the shell and apply-patch calls
 * are not started then.
 */
export function executeToolRuns(
  runs: readonly ToolRun[],
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
  localRuns: readonly LocalToolRun[] = [],
): Effect.Effect<ToolRunOutcome[], RunFailure> {
  const batch: ToolBatch = {
    cancellation: new ToolBatchCancellation(env.signal),
    // A call alone in its batch, in a run nothing but the caller's signal can cancel (not streamed),
    // gets that signal itself, as the reference hands it.
    directSignal: runs.length === 1 && localRuns.length === 0 && !env.streamed ? env.signal : undefined,
  };
  // With a recording step runner, the calls' steps start in call order (each call in its lane).
  const lanes = inLanes(env.stepRunner, runs.length);
  // The model is untrusted: one response may ask for any number of calls, so at most
  // `limits.maxConcurrentToolCalls` run at once (the rest start in call order as others end).
  const concurrency = Number.isFinite(env.limits.maxConcurrentToolCalls) ? env.limits.maxConcurrentToolCalls : 'unbounded';
  const computers = localRuns.filter((run): run is LocalToolRun & { kind: 'computer' } => run.kind === 'computer');
  // The call runner is inline, so the build's keepNames does not name a new closure on every turn.
  const functions =
    runs.length === 0
      ? Effect.succeed([] as ToolRunOutcome[])
      : settleBatch(runs, (run, i) => (lanes ? lanes(i, executeToolRun(run, agent, record, env, batch)) : executeToolRun(run, agent, record, env, batch)), batch.cancellation, concurrency);
  // The computer's calls run beside the function tools (neither depends on the other's effects), one
  // at a time; a failure of either category cancels the other, which settles before the run fails.
  const computerCalls = Effect.forEach(computers, (run) => executeComputerCall(run.call, run.tool, agent, record, env, batch.cancellation));
  const categories =
    computers.length === 0
      ? functions
      : runs.length === 0
        ? computerCalls
        : settleBatch([functions, computerCalls], (category) => category, batch.cancellation, 2).pipe(Effect.map(([a, b]) => [...a!, ...b!]));
  const sequential = localRuns.filter((run) => run.kind !== 'computer');
  const drained =
    runs.length === 0 && computers.length === 0
      ? categories
      : drainOnInterrupt(batch.cancellation, categories, (outcomes) => keepCancelledBatch(runs, outcomes, sequential, agent, record, env));
  // Then the shell and apply-patch calls, in response order (they act on the same workspace); none starts once the turn is cancelled.
  const locals = Effect.forEach(sequential, (run) =>
    Effect.suspend(() => (batch.cancellation.cancelled ? localCallNotStarted(run, agent, env) : executeLocalToolRun(run, agent, record, env))),
  );
  const all = Effect.zipWith(drained, locals, (a, b) => [...a, ...b]).pipe(
    Effect.tap((outcomes) =>
      Effect.sync(() => {
        for (const outcome of outcomes) {
          if (outcome.type === 'nested_interruption') continue;
          record.generatedItems.push(outcome.item);
          if (outcome.type === 'output' && outcome.followUp) record.generatedItems.push(outcome.followUp);
        }
      }),
    ),
  );
  return withReplayableApprovalClock(all, record, env);
}

/**
 * A call's \`emit\`. Emissions are checked even when nobody watches, so a broken tool fails the same
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

/** What the calls of one response share: its cancellation, and the caller's signal when a call may have it as its own. */
interface ToolBatch {
  readonly cancellation: ToolBatchCancellation;
  readonly directSignal: AbortSignal | undefined;
}

/**
 * A cancelled batch, drained: each call's output enters history in call order (a call that ended
 * without one gets an incomplete \`aborted\` one), then the computer's, then an \`aborted\` output for
 * each shell and apply-patch call (never started). A call that was waiting for approval stays
 * pending: the run, resumed, asks for the decision; without one it asks the model again.
 */
function keepCancelledBatch(
  runs: readonly ToolRun[],
  outcomes: readonly ToolRunOutcome[],
  notStarted: readonly LocalToolRun[],
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<void> {
  return Effect.gen(function* () {
    const interruptions: RunToolApprovalItem[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.type === 'output') {
        record.generatedItems.push(outcome.item);
        if (outcome.followUp) record.generatedItems.push(outcome.followUp);
      } else if (outcome.type === 'approval') {
        record.generatedItems.push(outcome.item);
        interruptions.push(outcome.item);
      } else if (i < runs.length) {
        const aborted = yield* commitAborted(runs[i]!.call, runs[i]!.tool, agent, env);
        record.generatedItems.push(aborted.item);
      }
    }
    for (const run of notStarted) {
      const aborted = yield* localCallNotStarted(run, agent, env);
      if (aborted.type === 'output') record.generatedItems.push(aborted.item);
    }
    record.currentStep = interruptions.length > 0 ? { type: 'next_step_interruption', interruptions } : { type: 'next_step_run_again' };
    record.turnInProgress = false;
  });
}

/**
 * Whether an approval expired depends on the time. With a recording step runner, this turn's
 * approval checks read one recorded time (a `time` step), so a replay decides them as the first run did.
 */
function withReplayableApprovalClock<A, E>(effect: Effect.Effect<A, E>, record: RunRecord, env: LoopEnv): Effect.Effect<A, E> {
  if (env.stepRunner === undefined || Object.keys(record.context.getApprovalRequests()).length === 0) return effect;
  const now = step(env.stepRunner, 'time', () => `t${record.currentTurn}:approvals:time`, numberCodec, Clock.currentTimeMillis);
  return Effect.flatMap(now, (millis) =>
    Effect.acquireUseRelease(
      Effect.sync(() => record.context.useClock({ currentTimeMillisUnsafe: () => millis })),
      () => effect,
      () => Clock.Clock.pipe(Effect.map((clock) => record.context.useClock(clock))),
    ),
  );
}

/** A call's span: from the decision to run it (approved, or needing none) to its committed output. */
function toolSpan(call: FunctionCallItem, tool: FunctionTool<any>) {
  return span('baton.tool', () => ({
    'baton.tool.name': call.name,
    'baton.tool.call_id': call.callId,
    'baton.tool.input': call.arguments,
    ...(tool.mcp ? { 'baton.tool.mcp_server': tool.mcp.server } : {}),
  }));
}

function executeToolRun(run: ToolRun, agent: Agent<any, any>, record: RunRecord, env: LoopEnv, batch: ToolBatch): Effect.Effect<ToolRunOutcome, RunFailure> {
  return Effect.gen(function* () {
    const { call, tool } = run;
    // Queued behind others when the run was cancelled: never started.
    if (batch.cancellation.cancelled) return yield* commitAborted(call, tool, agent, env);
    if (!tool) {
      if (env.toolNotFoundBehavior === 'raise_error') {
        return yield* Effect.fail(new ModelBehaviorError(`Tool ${call.name} not found in agent ${agent.name}.`));
      }
      const text = yield* formatToolError(env.toolErrorFormatter, {
        kind: 'tool_not_found',
        toolType: 'function',
        toolName: call.name,
        callId: call.callId,
        defaultMessage: toolNotFoundMessage(call.name),
        runContext: record.context,
      });
      return yield* commitOutput(call, undefined, text, agent, record, env);
    }
    const nestedKey = pendingRunKey(tool.name, call.callId);
    const resumeState = record.pendingAgentToolRuns.get(nestedKey);
    if (resumeState === undefined) {
      const parsed = parseArguments(call);
      if (!parsed.ok) return yield* unparsableArguments(call, tool, parsed.message, agent, record, env).pipe(toolSpan(call, tool));
      const needsApproval = yield* fromUserCode(() => tool.needsApproval(record.context, parsed.value, call.callId));
      if (needsApproval) {
        const decision = record.context.isToolApproved({ toolName: tool.name, callId: call.callId });
        if (decision === undefined) {
          // Opt-in: check the call before bothering a human; a rejection answers the model instead.
          if (env.preApprovalInputGuardrails) {
            const early = yield* runToolInputGuardrails(tool, call, agent, record, { runner: env.stepRunner, scope: `tool:${call.callId}:preapproval` });
            if (early !== undefined) return yield* commitOutput(call, tool, early, agent, record, env);
          }
          const item = new RunToolApprovalItem(call, agent, tool.name);
          yield* env.emit(itemEvent(item));
          return { type: 'approval', item } as const;
        }
        if (decision === false) {
          // The per-call (or sticky) message, even an empty one; else the formatter; else the default.
          // (An `if`, not `??`: the CommonJS build rewrites `??` into a function, where `yield*` cannot be.)
          let message = record.context.getRejectionMessage({ toolName: tool.name, callId: call.callId });
          if (message === undefined) {
            message = yield* formatToolError(env.toolErrorFormatter, {
              kind: 'approval_rejected',
              toolType: 'function',
              toolName: tool.name,
              callId: call.callId,
              defaultMessage: TOOL_APPROVAL_REJECTION_MESSAGE,
              runContext: record.context,
            });
          }
          const rejected = { message, defaultMessage: TOOL_APPROVAL_REJECTION_MESSAGE };
          return yield* annotate(() => ({ 'baton.tool.rejection': rejected })).pipe(
            Effect.andThen(commitOutput(call, tool, message, agent, record, env)),
            toolSpan(call, tool),
          );
        }
      }
    }
    return yield* runApprovedTool(run, tool, agent, record, env, resumeState, batch).pipe(toolSpan(call, tool));
  });
}

/** Tool input guardrails, the tool, its output guardrails, then its output into history. */
function runApprovedTool(
  run: ToolRun,
  tool: FunctionTool<any>,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
  resumeState: string | undefined,
  batch: ToolBatch,
): Effect.Effect<ToolRunOutcome, RunFailure> {
  return Effect.gen(function* () {
    const { call } = run;
    const nestedKey = pendingRunKey(tool.name, call.callId);
    // As the reference: the start event comes even when an input guardrail then rejects the call.
    yield* toolStarted(agent, tool, call, record, env);
    const steps = { runner: env.stepRunner, scope: `tool:${call.callId}` };
    const rejection = yield* runToolInputGuardrails(tool, call, agent, record, steps);
    if (rejection !== undefined) return yield* commitOutput(call, tool, rejection, agent, record, env);

    const body = invokeTool(tool, call, record, env, resumeState, batch).pipe(
      // As the reference: a tool that fails the run still ends, with the error it threw as its result.
      Effect.tapError((failure) => toolEnded(agent, tool, String(thrownBy(failure)), call, record, env)),
      Effect.flatMap((result): Effect.Effect<ToolCallResult, RunFailure> => {
        if (result.type !== 'output') return Effect.succeed(result);
        record.pendingAgentToolRuns.delete(nestedKey);
        if (ToolInterruption.is(result.output)) {
          record.pendingAgentToolRuns.set(nestedKey, String(result.output.resumeState));
          return Effect.succeed({ type: 'interrupted', interruption: result.output });
        }
        return runToolOutputGuardrails(tool, call, result.output, agent, record, steps).pipe(
          Effect.map((replaced) => ({ ...result, output: replaced ?? result.output })),
        );
      }),
      // After the output guardrails, as the reference: the hook gets what the model will see.
      Effect.tap((result) => (result.type === 'output' ? toolEnded(agent, tool, result.output, call, record, env) : Effect.void)),
    );
    const result = yield* tool.streaming ? framed(tool, call, env, body) : body;
    if (result.type === 'invalid_input') return yield* rejectedInput(call, tool, result.error, agent, record, env);
    if (result.type === 'interrupted') {
      // As the reference: the call ends, with no output, when its nested run paused (it starts again on resume).
      yield* toolEnded(agent, tool, '', call, record, env);
      return { type: 'nested_interruption', interruptions: result.interruption.interruptions } as const;
    }
    if (result.type === 'aborted') {
      // As the reference: a call a failing sibling cancelled ends \`aborted\`; one the run's caller
      // cancelled ends with what it threw.
      const ended = result.bySibling ? 'aborted' : String(result.thrown);
      return yield* toolEnded(agent, tool, ended, call, record, env).pipe(Effect.andThen(commitAborted(call, tool, agent, env)));
    }
    return yield* commitOutput(call, tool, result.output, agent, record, env, result.handledError);
  });
}

/**
 * \`aborted\`: the call ended with the batch's cancellation (it threw the reason, or an \`AbortError\`),
 * what it threw, and whether a sibling's failure (not the run's caller) cancelled it.
 */
type ToolCallResult = ToolStepResult | { type: 'interrupted'; interruption: ToolInterruption } | { type: 'aborted'; thrown: unknown; bySibling: boolean };

/**
 * Frames a streaming tool's call with `tool_stream_start_event` and `tool_stream_end_event`. The
 * end event carries what the model will see (after output guardrails), the error when the tool
 * failed (even if its error function answered the model), or `interrupted` for a nested pause.
 */
function framed(
  tool: FunctionTool<any>,
  call: FunctionCallItem,
  env: LoopEnv,
  body: Effect.Effect<ToolCallResult, RunFailure>,
): Effect.Effect<ToolCallResult, RunFailure> {
  const end = (output?: unknown, error?: unknown, interrupted?: boolean) =>
    env.emit(new ToolStreamEndEvent(tool.name, call.callId, output, error === undefined ? undefined : errorSummary(error), interrupted));
  return env.emit(new ToolStreamStartEvent(tool.name, call.callId, call.arguments)).pipe(
    Effect.andThen(body),
    Effect.tap((result) =>
      result.type === 'output'
        ? end(result.output, result.handledError)
        : result.type === 'invalid_input'
          ? end(undefined, result.error)
          : end(undefined, undefined, true),
    ),
    Effect.tapError((failure) => end(undefined, thrownBy(failure))),
  );
}

/** The error behind a failed call: the one the tool threw, not the \`ToolCallError\` wrapping it. */
function thrownBy(failure: RunFailure): unknown {
  const error = toPublicError(failure);
  return error instanceof ToolCallError ? error.error : error;
}

function errorSummary(error: unknown): { name: string; message: string } {
  return { name: nameOf(error), message: messageOf(error) };
}

/**
 * The invocation is the call's `tool:{callId}` step; its result is the output (an error the tool's
 * error function answered with included) or an invalid-input rejection. An agent tool is not a step
 * of its own: its nested run's steps are, under `tool:{callId}` (so a paused nested run and its
 * events replay too).
 */
function invokeTool(
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
  const invocation = Effect.withFiber((fiber) =>
    abortablePromise(
      (abort) => {
        const details: ToolCallDetails =
          directSignal !== undefined ? { toolCall: call, emit, signal: directSignal } : withLazySignal({ toolCall: call, emit } as Omit<ToolCallDetails, 'signal'>, abort);
        if (record.runId !== undefined) details.runId = record.runId;
        attachCallScope(details, scope);
        if (resumeState !== undefined) details.resumeState = resumeState;
        return inSpanContext(fiber, () => tool.invoke(record.context, call.arguments, details));
      },
      directSignal !== undefined ? undefined : (abort) => cancellation.enroll(abort),
    ),
  );
  // Set when the call failed with the batch's cancellation: it ends \`aborted\`, not as the run's error.
  let aborted: { type: 'aborted'; thrown: unknown; bySibling: boolean } | undefined;
  // Invalid arguments are the tool's error like any other (answered by its error function, or
  // failing the run), unless the run asked for them to fail it as the model's fault.
  const raisesInvalidInput = env.invalidToolInputBehavior === 'raise_error';
  const invoked = invocation.pipe(
    Effect.map((output): ToolStepResult =>
      raisesInvalidInput && scope.handledError instanceof InvalidToolInputError
        ? { type: 'invalid_input', error: scope.handledError }
        : { type: 'output', output, handledError: scope.handledError, handledByCustomFunction: scope.handledByCustomFunction },
    ),
    Effect.catch((error: unknown) => {
      if (cancellation.isCancellationError(error)) aborted = { type: 'aborted', thrown: error, bySibling: cancellation.bySiblingFailure };
      return raisesInvalidInput && error instanceof InvalidToolInputError
        ? Effect.succeed<ToolStepResult>({ type: 'invalid_input', error })
        : // Whatever the tool threw, a ToolCallError of its own included, is wrapped (as the reference does).
          Effect.fail(new ToolCallError(`Failed to run function tools: ${String(error)}`, error instanceof Error ? error : new Error(String(error))));
    }),
  );
  const stepped = env.stepRunner === undefined || agentToolSourceAgent(tool) !== undefined ? invoked : step(env.stepRunner, 'tool', () => `tool:${call.callId}`, toolStepCodec, invoked);
  const result: Effect.Effect<ToolCallResult, RunFailure> = stepped.pipe(
    Effect.catch((failure) => (aborted !== undefined ? Effect.succeed(aborted) : Effect.fail(failure))),
  );
  return result.pipe(
    Effect.tap((done) => {
      if (done.type !== 'output' || done.handledError === undefined) return Effect.void;
      const handled = done.handledError;
      return annotate(() => ({ 'baton.tool.error': handled, 'baton.tool.error_function': done.handledByCustomFunction ? 'custom' : 'default' })).pipe(
        Effect.andThen(done.handledByCustomFunction ? Effect.void : Effect.sync(() => logAnsweredToolError(tool.name, call.callId, handled))),
      );
    }),
  );
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

/** What the model is told of a call whose arguments are not JSON (an empty string included), as on the reference. */
export const UNPARSABLE_ARGUMENTS_MESSAGE = 'An error occurred while parsing tool arguments. Please try again with valid JSON.';

/**
 * A call whose arguments are not JSON never reaches its tool (no approval, no start or end hook):
 * the model is told so, or the run fails under `invalidToolInputBehavior: 'raise_error'`.
 */
function unparsableArguments(
  call: FunctionCallItem,
  tool: FunctionTool<any>,
  message: string,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<ToolRunOutcome, RunFailure> {
  if (env.invalidToolInputBehavior === 'raise_error') return Effect.fail(new ModelBehaviorError(message));
  return annotate(() => ({ 'baton.tool.error': new InvalidToolInputError(message) })).pipe(
    Effect.andThen(commitOutput(call, tool, UNPARSABLE_ARGUMENTS_MESSAGE, agent, record, env)),
  );
}

/**
 * Arguments the tool found invalid, under \`invalidToolInputBehavior: 'raise_error'\`: the run fails.
 * A journal written by an earlier release may hold one without that option: it is answered as the
 * default error function answers a failing tool, and the call ends with that answer.
 */
function rejectedInput(
  call: FunctionCallItem,
  tool: FunctionTool<any>,
  error: InvalidToolInputError,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<ToolRunOutcome, RunFailure> {
  if (env.invalidToolInputBehavior === 'raise_error') return Effect.fail(new ModelBehaviorError(error.message));
  const answer = defaultToolErrorFunction(record.context, error);
  return toolEnded(agent, tool, answer, call, record, env).pipe(Effect.andThen(commitOutput(call, tool, answer, agent, record, env)));
}

function commitOutput(
  call: FunctionCallItem,
  tool: FunctionTool<any> | undefined,
  output: unknown,
  agent: Agent<any, any>,
  _record: RunRecord,
  env: LoopEnv,
  handledError?: unknown,
): Effect.Effect<ToolRunOutcome> {
  const capped = capToolOutput(output, toolCallOutput(output), env.limits.maxToolOutputChars);
  const raw = { ...functionCallResult(call.callId, call.name, '', call.namespace), output: capped.output, ...(call.caller ? { caller: call.caller } : {}) };
  const item = new RunToolCallOutputItem(raw, agent, capped.value);
  // The error an error function answered for: the developer's, never sent to the model.
  if (handledError !== undefined) Object.defineProperty(item, 'error', { value: handledError, enumerable: false });
  return annotate(() => ({ 'baton.tool.output': toSmartString(capped.value) })).pipe(
    Effect.andThen(env.emit(itemEvent(item))),
    Effect.as({ type: 'output' as const, tool, output: capped.value, item }),
  );
}


/** The output of a call the run's cancellation ended (or never started): incomplete, \`aborted\`, as the reference records it. */
function commitAborted(call: FunctionCallItem, tool: FunctionTool<any> | undefined, agent: Agent<any, any>, env: LoopEnv): Effect.Effect<ToolRunOutcome & { type: 'output' }> {
  const raw = { ...functionCallResult(call.callId, call.name, 'aborted', call.namespace), status: 'incomplete' as const, ...(call.caller ? { caller: call.caller } : {}) };
  const item = new RunToolCallOutputItem(raw, agent, 'aborted');
  return env.emit(itemEvent(item)).pipe(Effect.as({ type: 'output' as const, tool, output: 'aborted', item }));
}

/** The call's arguments as JSON; an empty string is not JSON (as on the reference, which never reads it as \`{}\`). */
function parseArguments(call: FunctionCallItem): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(call.arguments) };
  } catch (error) {
    return { ok: false, message: `Invalid JSON input for tool "${call.name}": ${(error as Error).message}` };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}
