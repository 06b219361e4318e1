import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import {
  RunMessageOutputItem,
  RunToolCallOutputItem,
  type Computer,
  type ComputerAction,
  type ComputerCallResultItem,
  type ComputerTool,
  type ComputerUseCallItem,
  type RunContextContract,
} from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { resolveComputer } from '../../../definitions/internal/computerInstances.js';
import { getLogger } from '../../../definitions/logger.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { RunFailure } from '../failures.js';
import { fromUserCode } from '../userCode.js';
import { acknowledgedChecks, pendingSafetyChecks } from './computerSafetyChecks.js';
import type { ToolRunOutcome } from './toolRunOutcome.js';
import { extractedCustomData } from './toolOutputCustomData.js';
import { copyForExtractor } from '../../../definitions/internal/extractorCopy.js';
import { toolEnded, toolStarted } from './lifecycleHooks.js';
import { decideLocalApproval, rejectionMessage } from './localToolApproval.js';
import { commitLocalOutput, errorText, localToolSpan, noteLocalToolError } from './localToolOutput.js';
import type { LoopEnv } from './loopEnv.js';
import { annotate, withSpanContext } from './span.js';
import { jsonCodec } from './stepCodecs.js';
import { step } from './steps.js';
import { runToolInputGuardrails, runToolOutputGuardrails } from './toolGuardrails.js';
import type { ToolBatchCancellation } from './toolCancellation.js';
import { siblingFailureReason } from './siblingFailure.js';

/** The image a rejected computer call answers with (one transparent pixel), as the reference sends. */
export const COMPUTER_FALLBACK_SCREENSHOT =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

type ComputerOutcome = { readonly screenshot: string } | { readonly error: string };

/** The call's actions: a batch (`actions`, GA tool) or one `action` (preview tool). */
export function computerActions(call: ComputerUseCallItem): ComputerAction[] {
  if (Array.isArray(call.actions) && call.actions.length > 0) return call.actions;
  return call.action ? [call.action] : [];
}

/**
 * Runs one computer call: approval (asked per action; the item shows them), the model's safety
 * checks (`onSafetyCheck` acknowledges or rejects them), the actions in order, then a screenshot
 * answering the call as an image (`data:image/png;base64,...`). A rejected call answers with a
 * placeholder image and tells the model why in a message; an action the computer refuses answers
 * with an empty image (the run goes on). The actions are the call's `tool:{callId}` step. The
 * tool's input guardrails check the call before its actions run, its output guardrails the
 * screenshot; a `rejectContent` answers as a rejected call does (placeholder image and message).
 */
export function executeComputerCall(
  call: ComputerUseCallItem,
  tool: ComputerTool<any, any>,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
  cancellation?: ToolBatchCancellation,
): Effect.Effect<ToolRunOutcome, RunFailure> {
  return Effect.gen(function* () {
    // Cancelled (the run, or a failed sibling category) before it started: never started.
    if (cancellation?.cancelled) return yield* abortedComputerCall(call, agent, env);
    const actions = computerActions(call);
    const approval = yield* decideLocalApproval(call, tool, () => needsApproval(call, tool, actions, record, cancellation), agent, record, env);
    if (cancellation?.cancelled) return yield* abortedComputerCall(call, agent, env);
    if (approval.status === 'pending') return { type: 'approval', item: approval.item } as const;
    if (approval.status === 'rejected') return yield* rejected(call, approval.message, agent, env);
    return yield* runActions(call, tool, actions, agent, record, env, cancellation).pipe(localToolSpan(tool, call, call.actions ?? call.action, env));
  });
}

/**
 * Asks \`needsApproval\` about each action of the call at once. The first answer that throws cancels
 * the turn's other calls right away (its error will fail the run), yet every question is waited for
 * before that error is reported, so no approval callback still runs after the run has ended.
 */
async function needsApproval(
  call: ComputerUseCallItem,
  tool: ComputerTool<any, any>,
  actions: ComputerAction[],
  record: RunRecord,
  cancellation: ToolBatchCancellation | undefined,
): Promise<boolean> {
  let failure: { error: unknown } | undefined;
  const answers = await Promise.allSettled(
    actions.map(async (action) => {
      try {
        return await tool.needsApproval(record.context, action, call.callId);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          cancellation?.cancel(siblingFailureReason());
        }
        throw error;
      }
    }),
  );
  if (failure !== undefined) throw failure.error;
  return answers.some((answer) => answer.status === 'fulfilled' && answer.value);
}

/**
 * The output of a computer call the batch's cancellation ended, or never started: the placeholder
 * image, marked incomplete, as the reference records it.
 */
export function abortedComputerCall(call: ComputerUseCallItem, agent: Agent<any, any>, env: LoopEnv): Effect.Effect<ToolRunOutcome> {
  const raw: ComputerCallResultItem = {
    type: 'computer_call_result',
    callId: call.callId,
    output: { type: 'computer_screenshot', data: COMPUTER_FALLBACK_SCREENSHOT },
    providerData: { status: 'incomplete' },
  };
  return commitLocalOutput(new RunToolCallOutputItem(raw, agent, 'aborted'), env);
}

function rejected(call: ComputerUseCallItem, message: string, agent: Agent<any, any>, env: LoopEnv): Effect.Effect<ToolRunOutcome> {
  const raw: ComputerCallResultItem = {
    type: 'computer_call_result',
    callId: call.callId,
    output: { type: 'computer_screenshot', data: COMPUTER_FALLBACK_SCREENSHOT, providerData: { approvalStatus: 'rejected', message } },
  };
  const explanation = new RunMessageOutputItem({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: message }] }, agent);
  return commitLocalOutput(new RunToolCallOutputItem(raw, agent, COMPUTER_FALLBACK_SCREENSHOT), env, explanation);
}

function runActions(
  call: ComputerUseCallItem,
  tool: ComputerTool<any, any>,
  actions: ComputerAction[],
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
  cancellation: ToolBatchCancellation | undefined,
): Effect.Effect<ToolRunOutcome, RunFailure> {
  return Effect.gen(function* () {
    yield* toolStarted(agent, tool, call, record, env);
    // Started, then cancelled: the call ends \`aborted\` (its end hook says so) and its actions do not run.
    const stopped = () => toolEnded(agent, tool, 'aborted', call, record, env).pipe(Effect.andThen(abortedComputerCall(call, agent, env)));
    const pending = pendingSafetyChecks(call);
    let acknowledged: ReturnType<typeof acknowledgedChecks>;
    if (pending !== undefined) {
      const onSafetyCheck = tool.onSafetyCheck;
      if (onSafetyCheck) {
        const answer = yield* Effect.exit(fromUserCode(env, () => onSafetyCheck({ runContext: record.context, pendingSafetyChecks: pending, toolCall: call })));
        // A check that fails once the turn was cancelled ends the call as aborted: the cancellation's cause is the run's error.
        if (cancellation?.cancelled) return yield* stopped();
        if (Exit.isFailure(answer)) return yield* Effect.failCause(answer.cause);
        acknowledged = acknowledgedChecks(answer.value, pending);
      } else {
        getLogger('openai-agents:core').warn(
          'Computer call has pending safety checks, but no onSafetyCheck handler is configured; the action proceeds without acknowledging them. Configure computerTool({ onSafetyCheck }) to review or reject them.',
        );
      }
    }
    if (cancellation?.cancelled) return yield* stopped();
    if (acknowledged === false) {
      const message = yield* rejectionMessage(tool, call.callId, record, env);
      const outcome = yield* rejected(call, message, agent, env);
      yield* toolEnded(agent, tool, message, call, record, env);
      return outcome;
    }
    const steps = { runner: env.stepRunner, traced: env.traced, scope: `tool:${call.callId}` };
    const rejection = yield* runToolInputGuardrails(tool, call, agent, record, steps);
    if (rejection !== undefined) return yield* rejected(call, rejection, agent, env);
    const invoked: Effect.Effect<ComputerOutcome> = withSpanContext(env, (enter) =>
      Effect.tryPromise({
        try: () => enter(async () => perform(await resolveComputer(tool, record.context), actions, record.context)),
        catch: (error) => error,
      }),
    ).pipe(
      Effect.map((screenshot): ComputerOutcome => ({ screenshot })),
      Effect.catch((error: unknown) => noteLocalToolError(tool, call, error, env).pipe(Effect.as<ComputerOutcome>({ error: errorText(error) }))),
    );
    if (cancellation?.cancelled) return yield* stopped();
    const outcome = yield* step(env.stepRunner, 'tool', () => `tool:${call.callId}`, jsonCodec as never, invoked) as Effect.Effect<ComputerOutcome>;
    // Cancelled while its actions ran: they are done (never cut off halfway), but the turn is over.
    if (cancellation?.cancelled) return yield* stopped();
    const image = 'screenshot' in outcome && outcome.screenshot ? `data:image/png;base64,${outcome.screenshot}` : '';
    const raw: ComputerCallResultItem = { type: 'computer_call_result', callId: call.callId, output: { type: 'computer_screenshot', data: image } };
    if (acknowledged && acknowledged.length > 0) raw.providerData = { acknowledgedSafetyChecks: acknowledged };
    // Before the end hook, as the reference: an extractor that fails ends the run without it.
    const customData = yield* extractedCustomData(tool.customDataExtractor, () => ({
      runContext: record.context,
      tool,
      toolCall: copyForExtractor(call),
      output: image,
      rawItem: copyForExtractor(raw),
    }), env);
    yield* toolEnded(agent, tool, 'screenshot' in outcome ? outcome.screenshot : '', call, record, env);
    const withheld = yield* runToolOutputGuardrails(tool, call, 'screenshot' in outcome ? outcome.screenshot : '', agent, record, steps);
    if (withheld !== undefined) return yield* rejected(call, withheld, agent, env);
    yield* annotate(env, () => ({ 'baton.tool.output': image === '' ? '' : 'screenshot' }));
    return yield* commitLocalOutput(new RunToolCallOutputItem(raw, agent, image, customData), env);
  });
}

/** Performs the actions in order, then takes the screenshot the model sees. */
async function perform(computer: Computer, actions: ComputerAction[], runContext: RunContextContract<any>): Promise<string> {
  for (const action of actions) {
    switch (action.type) {
      case 'click':
        await computer.click(action.x, action.y, action.button, runContext);
        break;
      case 'double_click':
        await computer.doubleClick(action.x, action.y, runContext);
        break;
      case 'drag':
        await computer.drag(action.path.map((point) => [point.x, point.y] as [number, number]), runContext);
        break;
      case 'keypress':
        await computer.keypress(action.keys, runContext);
        break;
      case 'move':
        await computer.move(action.x, action.y, runContext);
        break;
      case 'scroll':
        await computer.scroll(action.x, action.y, action.scroll_x, action.scroll_y, runContext);
        break;
      case 'type':
        await computer.type(action.text, runContext);
        break;
      case 'wait':
        await computer.wait(runContext);
        break;
      case 'screenshot':
        break; // the screenshot after the batch answers it
      default:
        throw new Error(`Unsupported computer action "${String((action as { type?: unknown }).type)}".`);
    }
  }
  const screenshot = await computer.screenshot(runContext);
  if (typeof screenshot !== 'string') throw new Error('Computer screenshot() did not return a base64 string.');
  return screenshot;
}
