import { INVALID_TOOL_INPUT_MESSAGE } from '../../../definitions/internal/invalidToolInput.js';
import * as Effect from 'effect/Effect';
import { annotate, span } from './span.js';
import {
  InvalidToolInputError,
  ModelBehaviorError,
  RunToolApprovalItem,
  ToolCallError,
  ToolInterruption,
  ToolStreamEndEvent,
  ToolStreamStartEvent,
  type FunctionCallItem,
  type FunctionTool,
  type ToolOutputCustomData,
} from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { toPublicError, type RunFailure } from '../failures.js';
import { fromUserCode } from '../userCode.js';
import { itemEvent } from '../../../state/internal/items.js';
import { pendingRunKey, type RunRecord } from '../../../state/internal/runRecord.js';
import { formatToolError } from '../formatToolError.js';
import { TOOL_APPROVAL_REJECTION_MESSAGE, toolNotFoundMessage } from '../../../definitions/toolErrorFormatter.js';
import { defaultToolErrorFunction } from '../../../definitions/tool.js';
import type { ToolRun } from './classifyResponse.js';
import type { ToolRunOutcome } from './toolRunOutcome.js';
import type { LoopEnv } from './loopEnv.js';
import { toolEnded, toolStarted } from './lifecycleHooks.js';
import { runToolInputGuardrails, runToolOutputGuardrails, type ToolGuardrailSteps } from './toolGuardrails.js';
import { flatMapNow } from '../flatMapNow.js';
import { fixedAnswerOf } from '../../../definitions/internal/fixedAnswer.js';
import { commitAborted, commitOutput } from './toolCallOutputs.js';
import { invokeTool, messageOf, nameOf, type ToolBatch, type ToolCallResult } from './invokeTool.js';
import { functionToolCustomData } from './toolOutputCustomData.js';
import { inputPreparerOf } from '../../../definitions/internal/preparedToolInput.js';
import type { PreparedToolInput } from '../../../definitions/internal/toolCallScope.js';

/**
 * One call: not started when the batch was cancelled; answered when its tool is missing or its
 * arguments are not JSON; otherwise its approval is asked for, applied, or not needed. Written as
 * continuations: a call that needs no approval reaches its tool without a fiber step of its own.
 */
export function executeToolRun(run: ToolRun, agent: Agent<any, any>, record: RunRecord, env: LoopEnv, batch: ToolBatch): Effect.Effect<ToolRunOutcome, RunFailure> {
  return Effect.suspend(() => {
    const { call, tool } = run;
    // Queued behind others when the run was cancelled: never started.
    if (batch.cancellation.cancelled) return commitAborted(call, tool, agent, env);
    if (!tool) return missingTool(call, agent, record, env);
    const resumeState = record.pendingAgentToolRuns.get(pendingRunKey(tool.name, call.callId));
    if (resumeState !== undefined) return runApprovedTool(run, tool, agent, record, env, resumeState, batch).pipe(toolSpan(call, tool, env));
    const parsed = parseArguments(call);
    if (!parsed.ok) return unparsableArguments(call, tool, parsed.message, agent, record, env).pipe(toolSpan(call, tool, env));
    const fixed = fixedAnswerOf(tool.needsApproval);
    if (fixed === false) return runApprovedTool(run, tool, agent, record, env, undefined, batch).pipe(toolSpan(call, tool, env));
    const kept = keptArguments(call, tool, record);
    if (kept !== undefined) return approvalApplied(run, tool, parsed.value, kept, true, agent, record, env, batch);
    return flatMapNow(preparedArguments(call, tool, env), (prepared) => approvalApplied(run, tool, parsed.value, prepared, false, agent, record, env, batch));
  });
}

/**
 * As the reference: a call whose approval is asked about has its arguments read by its tool first,
 * once (its `execute` then receives them as read, or the call fails as invalid without another
 * validation). A tool without the capability (`PREPARE_INPUT`: one not made by `tool()`) reads its
 * arguments when invoked, as any tool.
 */
function preparedArguments(call: FunctionCallItem, tool: FunctionTool<any>, env: LoopEnv): Effect.Effect<PreparedToolInput | undefined, RunFailure> {
  const preparer = inputPreparerOf(tool);
  if (preparer === undefined) return Effect.succeed(undefined);
  return Effect.map(fromUserCode(env, () => preparer(call.arguments)), (read): PreparedToolInput => ({ input: call.arguments, preparer, read }));
}

/** The reading a dynamic `needsApproval` was asked about when the run paused on this call, if it still applies (same arguments, same tool). */
function keptArguments(call: FunctionCallItem, tool: FunctionTool<any>, record: RunRecord): PreparedToolInput | undefined {
  const key = pendingRunKey(tool.name, call.callId);
  const kept = record.approvalInputs?.get(key);
  if (kept === undefined) return undefined;
  record.approvalInputs!.delete(key);
  return kept.input === call.arguments && kept.preparer === inputPreparerOf(tool) ? kept : undefined;
}

/**
 * What a dynamic `needsApproval` is asked about: the arguments as `execute` would receive them, a
 * copy (as the reference snapshots them: the policy cannot change what `execute` gets; the value
 * itself when it cannot be copied, a function in it); the JSON when the tool refused them or cannot read them.
 */
function policyInput(prepared: PreparedToolInput | undefined, json: unknown): unknown {
  if (prepared === undefined || !prepared.read.ok) return json;
  try {
    return structuredClone(prepared.read.value);
  } catch {
    return prepared.read.value;
  }
}

/**
 * A call whose tool may need approval: a decision already made applies (as the reference, before
 * the policy is asked: a decided call does not ask it again); otherwise the policy says whether the
 * run pauses for one, or the call runs.
 */
function approvalApplied(
  run: ToolRun,
  tool: FunctionTool<any>,
  json: unknown,
  prepared: PreparedToolInput | undefined,
  /** `prepared` is the reading the policy was asked about before the pause (not read again since). */
  kept: boolean,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
  batch: ToolBatch,
): Effect.Effect<ToolRunOutcome, RunFailure> {
  const { call } = run;
  const decision = record.context.isToolApproved({ toolName: tool.name, callId: call.callId });
  if (decision === false) return rejectedCall(call, tool, agent, record, env);
  const fixed = fixedAnswerOf(tool.needsApproval);
  const askPolicy = () => fromUserCode(env, () => tool.needsApproval(record.context, policyInput(prepared, json), call.callId));
  if (decision === true) {
    const approved = runApprovedTool(run, tool, agent, record, env, undefined, batch, prepared).pipe(toolSpan(call, tool, env));
    // As the reference: an approval given for arguments read again (a state read back) is honoured
    // once the policy, asked about them as read now, has not failed (whatever it answers).
    return fixed === undefined && !kept && prepared?.read.ok === true ? Effect.andThen(askPolicy(), approved) : approved;
  }
  const needsApproval = fixed !== undefined ? Effect.succeed(fixed) : askPolicy();
  return flatMapNow(needsApproval, (needed) => {
    if (!needed) return runApprovedTool(run, tool, agent, record, env, undefined, batch, prepared).pipe(toolSpan(call, tool, env));
    if (fixed === undefined && prepared !== undefined) (record.approvalInputs ??= new Map()).set(pendingRunKey(tool.name, call.callId), prepared);
    return approvalRequested(call, tool, agent, record, env);
  });
}

/** An undecided call: with `preApprovalInputGuardrails` checked first (a rejection answers the model instead), then an approval item. */
function approvalRequested(call: FunctionCallItem, tool: FunctionTool<any>, agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<ToolRunOutcome, RunFailure> {
  const request = () => {
    const item = new RunToolApprovalItem(call, agent, tool.name);
    return Effect.as(env.emit(itemEvent(item)), { type: 'approval', item } as const);
  };
  if (!env.preApprovalInputGuardrails) return request();
  return Effect.flatMap(runToolInputGuardrails(tool, call, agent, record, { runner: env.stepRunner, traced: env.traced, scope: `tool:${call.callId}:preapproval` }), (early) =>
    early !== undefined ? commitOutput(call, tool, early, agent, record, env) : request(),
  );
}

/** A rejected call is answered with the per-call (or sticky) message, even an empty one; else the formatter's; else the default. */
function rejectedCall(call: FunctionCallItem, tool: FunctionTool<any>, agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<ToolRunOutcome, RunFailure> {
  const given = record.context.getRejectionMessage({ toolName: tool.name, callId: call.callId });
  const message =
    given !== undefined
      ? Effect.succeed(given)
      : formatToolError(env.toolErrorFormatter, {
          kind: 'approval_rejected',
          toolType: 'function',
          toolName: tool.name,
          callId: call.callId,
          defaultMessage: TOOL_APPROVAL_REJECTION_MESSAGE,
          runContext: record.context,
        });
  return flatMapNow(message, (text) => {
    const rejected = { message: text, defaultMessage: TOOL_APPROVAL_REJECTION_MESSAGE };
    return annotate(env, () => ({ 'baton.tool.rejection': rejected })).pipe(Effect.andThen(commitOutput(call, tool, text, agent, record, env)), toolSpan(call, tool, env));
  });
}

/** A call to a tool the agent does not have: answered with the formatter's text (or the default), or failing the run under `toolNotFoundBehavior: 'raise_error'`. */
function missingTool(call: FunctionCallItem, agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<ToolRunOutcome, RunFailure> {
  if (env.toolNotFoundBehavior === 'raise_error') return Effect.fail(new ModelBehaviorError(`Tool ${call.name} not found in agent ${agent.name}.`));
  const text = formatToolError(env.toolErrorFormatter, {
    kind: 'tool_not_found',
    toolType: 'function',
    toolName: call.name,
    callId: call.callId,
    defaultMessage: toolNotFoundMessage(call.name),
    runContext: record.context,
  });
  return flatMapNow(text, (answer) => commitOutput(call, undefined, answer, agent, record, env));
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
  prepared?: PreparedToolInput,
): Effect.Effect<ToolRunOutcome, RunFailure> {
  const { call } = run;
  const steps = { runner: env.stepRunner, traced: env.traced, scope: `tool:${call.callId}` };
  // As the reference: the start event comes even when an input guardrail then rejects the call.
  return Effect.flatMap(toolStarted(agent, tool, call, record, env), () =>
    flatMapNow(runToolInputGuardrails(tool, call, agent, record, steps), (rejection) => {
      if (rejection !== undefined) {
        // As the reference: the rejection is the call's output, and the tool ends with it.
        return flatMapNow(customDataOf(tool, call, rejection, undefined, undefined, agent, record, env), (customData) =>
          Effect.andThen(toolEnded(agent, tool, rejection, call, record, env), commitOutput(call, tool, rejection, agent, record, env, undefined, customData)),
        );
      }
      const body = guardedInvocation(tool, call, agent, record, env, resumeState, batch, steps, prepared);
      return Effect.flatMap(tool.streaming ? framed(tool, call, env, body) : body, (result) => endedCall(result, call, tool, agent, record, env));
    }),
  );
}

/** The tool's invocation, then its output guardrails; the tool's end hook gets what the model will see (or what a failing tool threw). */
function guardedInvocation(
  tool: FunctionTool<any>,
  call: FunctionCallItem,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
  resumeState: string | undefined,
  batch: ToolBatch,
  steps: ToolGuardrailSteps,
  prepared: PreparedToolInput | undefined,
): Effect.Effect<InvokedCall, RunFailure> {
  const nestedKey = pendingRunKey(tool.name, call.callId);
  return invokeTool(tool, call, record, env, resumeState, batch, prepared).pipe(
    // As the reference: a tool that fails the run still ends, with the error it threw as its result.
    Effect.tapError((failure) => toolEnded(agent, tool, String(thrownBy(failure)), call, record, env)),
    Effect.flatMap((result): Effect.Effect<InvokedCall, RunFailure> => {
      if (result.type !== 'output') return Effect.succeed(result);
      record.pendingAgentToolRuns.delete(nestedKey);
      if (ToolInterruption.is(result.output)) {
        record.pendingAgentToolRuns.set(nestedKey, String(result.output.resumeState));
        return Effect.succeed({ type: 'interrupted', interruption: result.output });
      }
      return flatMapNow(runToolOutputGuardrails(tool, call, result.output, agent, record, steps), (replaced) => {
        const output = replaced ?? result.output;
        // After the output guardrails, as the reference: the custom data and the hook are of what the model will see.
        return flatMapNow(customDataOf(tool, call, output, result.parsedInput, result.handledError, agent, record, env), (customData) => {
          // A literal, not a spread of `result`: a spread followed by fields is V8's slow path (about 1 µs a call).
          const seen: InvokedCall = {
            type: 'output',
            output,
            handledError: result.handledError,
            handledByCustomFunction: result.handledByCustomFunction,
            parsedInput: result.parsedInput,
            customData,
          };
          return Effect.as(toolEnded(agent, tool, output, call, record, env), seen);
        });
      });
    }),
  );
}

/** What an invoked call leaves: its output in history, a nested run's pause, or an `aborted` output. */
function endedCall(
  result: InvokedCall,
  call: FunctionCallItem,
  tool: FunctionTool<any>,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<ToolRunOutcome, RunFailure> {
  if (result.type === 'invalid_input') return rejectedInput(call, tool, result.error, agent, record, env);
  if (result.type === 'interrupted') {
    // As the reference: the call ends, with no output, when its nested run paused (it starts again on resume).
    return Effect.as(toolEnded(agent, tool, '', call, record, env), { type: 'nested_interruption', interruptions: result.interruption.interruptions } as const);
  }
  if (result.type === 'aborted') {
    // As the reference: a call a failing sibling cancelled ends `aborted`; one the run's caller
    // cancelled ends with what it threw.
    const ended = result.bySibling ? 'aborted' : String(result.thrown);
    return toolEnded(agent, tool, ended, call, record, env).pipe(Effect.andThen(commitAborted(call, tool, agent, env)));
  }
  return commitOutput(call, tool, result.output, agent, record, env, result.handledError, 'customData' in result ? result.customData : undefined);
}

/** An invoked call's result, with the custom data its tool's extractor attached to the output. */
type InvokedCall = ToolCallResult | (Extract<ToolCallResult, { type: 'output' }> & { readonly customData: ToolOutputCustomData | undefined });

/**
 * Frames a streaming tool's call with `tool_stream_start_event` and `tool_stream_end_event`. The
 * end event carries what the model will see (after output guardrails), the error when the tool
 * failed (even if its error function answered the model), or `interrupted` for a nested pause.
 */
function framed(
  tool: FunctionTool<any>,
  call: FunctionCallItem,
  env: LoopEnv,
  body: Effect.Effect<InvokedCall, RunFailure>,
): Effect.Effect<InvokedCall, RunFailure> {
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

/** The error behind a failed call: the one the tool threw, not the `ToolCallError` wrapping it. */
/** The output's custom data; when the extractor fails the call, the tool still ends, with that error as its result (as the reference). */
function customDataOf(
  tool: FunctionTool<any>,
  call: FunctionCallItem,
  output: unknown,
  parsedInput: { readonly value: unknown } | undefined,
  handledError: unknown,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<ToolOutputCustomData | undefined, RunFailure> {
  if (tool.customDataExtractor === undefined) return NO_CUSTOM_DATA;
  return functionToolCustomData(tool, call, output, parsedInput, handledError, record, env).pipe(
    Effect.tapError((failure) => toolEnded(agent, tool, String(thrownBy(failure)), call, record, env)),
  );
}

const NO_CUSTOM_DATA: Effect.Effect<undefined> = Effect.succeed(undefined);

function thrownBy(failure: RunFailure): unknown {
  const error = toPublicError(failure);
  return error instanceof ToolCallError ? error.error : error;
}

function errorSummary(error: unknown): { name: string; message: string } {
  return { name: nameOf(error), message: messageOf(error) };
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
  return annotate(env, () => ({ 'baton.tool.error': new InvalidToolInputError(message) })).pipe(
    Effect.andThen(commitOutput(call, tool, UNPARSABLE_ARGUMENTS_MESSAGE, agent, record, env)),
  );
}

/**
 * Arguments the tool found invalid, under `invalidToolInputBehavior: 'raise_error'`: the run fails.
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
  if (env.invalidToolInputBehavior === 'raise_error') {
    // A redacted error says nothing of the arguments; the run's error still names the tool.
    return Effect.fail(new ModelBehaviorError(error.message === INVALID_TOOL_INPUT_MESSAGE ? `${INVALID_TOOL_INPUT_MESSAGE} "${call.name}"` : error.message));
  }
  const answer = defaultToolErrorFunction(record.context, error);
  return toolEnded(agent, tool, answer, call, record, env).pipe(Effect.andThen(commitOutput(call, tool, answer, agent, record, env)));
}

/** The call's arguments as JSON; an empty string is not JSON (as on the reference, which never reads it as `{}`). */
function parseArguments(call: FunctionCallItem): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(call.arguments) };
  } catch (error) {
    return { ok: false, message: `Invalid JSON input for tool "${call.name}": ${(error as Error).message}` };
  }
}

/** A call's span: from the decision to run it (approved, or needing none) to its committed output. */
function toolSpan(call: FunctionCallItem, tool: FunctionTool<any>, env: LoopEnv) {
  return span(env, 'baton.tool', () => ({
    'baton.tool.name': call.name,
    'baton.tool.call_id': call.callId,
    'baton.tool.input': call.arguments,
    ...(tool.mcp ? { 'baton.tool.mcp_server': tool.mcp.server } : {}),
  }));
}
