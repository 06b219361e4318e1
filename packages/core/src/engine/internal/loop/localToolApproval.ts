import * as Effect from 'effect/Effect';
import { RunToolApprovalItem, type ApprovalTarget, type LocalToolCallItem, type ToolInputGuardrail } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { LocalTool } from '../../../definitions/internal/localTools.js';
import { TOOL_APPROVAL_REJECTION_MESSAGE } from '../../../definitions/toolErrorFormatter.js';
import { itemEvent } from '../../../state/internal/items.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { RunFailure } from '../failures.js';
import { formatToolError } from '../formatToolError.js';
import { fromUserCode } from '../userCode.js';
import type { LoopEnv } from './loopEnv.js';
import { runToolInputGuardrails } from './toolGuardrails.js';

/** Whether a local tool's call may run: yes, no (with the model's message), or not yet (the run pauses on the item). */
export type LocalApproval =
  | { readonly status: 'approved' }
  | { readonly status: 'rejected'; readonly message: string }
  | { readonly status: 'pending'; readonly item: RunToolApprovalItem };

/**
 * Decides a local tool's call as the reference does: a decision already made for the call (or the
 * tool, `alwaysApprove` / `alwaysReject`) stands; otherwise the tool's `needsApproval` asks, and
 * when approval is needed its `onApproval` may decide in code, else the run pauses on an approval
 * item (announced as `tool_approval_requested`) whose `rawItem` is the call (the commands, the
 * patch, the action). With `toolExecution.preApprovalInputGuardrails`, the tool's input guardrails
 * check the call before a human is asked, as for function tools: a rejection answers the model.
 */
export function decideLocalApproval(
  call: LocalToolCallItem,
  tool: LocalTool,
  needsApproval: () => Promise<boolean>,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<LocalApproval, RunFailure> {
  return Effect.gen(function* () {
    const target: ApprovalTarget = { toolName: tool.name, callId: call.callId };
    const item = new RunToolApprovalItem(call, agent, tool.name);
    let decision = record.context.isToolApproved(target);
    if (decision === undefined) {
      if (!(yield* fromUserCode(env, needsApproval))) return { status: 'approved' } as const;
      const onApproval = tool.type === 'computer' ? undefined : tool.onApproval;
      if (onApproval) {
        const answer = yield* fromUserCode(env, () => onApproval(record.context, item));
        if (answer?.approve === true) record.context.approveTool(item);
        else if (answer?.approve === false) record.context.rejectTool(item, typeof answer.reason === 'string' && answer.reason !== '' ? { message: answer.reason } : {});
        decision = record.context.isToolApproved(target);
      }
    }
    if (decision === true) return { status: 'approved' } as const;
    if (decision === undefined) {
      if (env.preApprovalInputGuardrails) {
        const guarded = tool as { readonly inputGuardrails?: readonly ToolInputGuardrail<any, LocalToolCallItem>[] };
        const early = yield* runToolInputGuardrails(guarded, call, agent, record, { runner: env.stepRunner, traced: env.traced, scope: `tool:${call.callId}:preapproval` });
        if (early !== undefined) return { status: 'rejected', message: early } as const;
      }
      yield* env.emit(itemEvent(item));
      return { status: 'pending', item } as const;
    }
    return { status: 'rejected', message: yield* rejectionMessage(tool, call.callId, record, env) } as const;
  });
}

/** What the model is told about a rejected call: the decision's message, else the formatter's, else the default. */
export function rejectionMessage(tool: LocalTool, callId: string, record: RunRecord, env: LoopEnv): Effect.Effect<string> {
  const message = record.context.getRejectionMessage({ toolName: tool.name, callId });
  if (message !== undefined) return Effect.succeed(message);
  return formatToolError(env.toolErrorFormatter, {
    kind: 'approval_rejected',
    toolType: tool.type,
    toolName: tool.name,
    callId,
    defaultMessage: TOOL_APPROVAL_REJECTION_MESSAGE,
    runContext: record.context,
  });
}
