import * as Effect from 'effect/Effect';
import { RunToolCallItem, UserError, type HostedToolCallItem, type RunToolApprovalItem } from '@baton/types';
import type { RunFailure } from '../failures.js';
import { itemEvent } from '../../../state/internal/items.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { fromUserCode } from '../userCode.js';
import type { HostedApprovalRequest } from './classifyResponse.js';
import type { LoopEnv } from './loopEnv.js';

/** What `hostedMcpTool({ onApproval })` decides for one request. */
interface ApprovalDecision {
  approve: boolean;
  reason?: string;
}

/**
 * Answers a remote MCP server's approval requests, as the reference does: a request already decided
 * on the run state (`state.approve` / `reject`) or decided now by the tool's `onApproval` gets an
 * `mcp_approval_response` item (the provider sends it back on the next turn); the others pause the
 * run, their approval items returned as interruptions. Requests answered before are skipped.
 */
export function answerHostedApprovals(requests: readonly HostedApprovalRequest[], record: RunRecord, env: LoopEnv): Effect.Effect<RunToolApprovalItem[], RunFailure> {
  if (requests.length === 0) return Effect.succeed([]);
  return Effect.gen(function* () {
    const answered = answeredRequestIds(record);
    const pending: RunToolApprovalItem[] = [];
    for (const { item, tool } of requests) {
      const target = { toolName: item.toolName, callId: item.callId };
      if (answered.has(target.callId)) continue;
      let decision: ApprovalDecision | undefined;
      // Decisions hold per server and remote tool: "always approve" for one server's tool is no answer for another's.
      const decided = record.context._getHostedMcpApprovalStatus(item);
      if (decided !== undefined) {
        decision = { approve: decided };
        const message = decided ? undefined : record.context._getHostedMcpRejectionMessage(item);
        if (message !== undefined) decision.reason = message;
      } else if (typeof tool.providerData?.on_approval === 'function') {
        decision = yield* decide(tool.providerData.on_approval, item, record, env);
        if (decision.approve) record.context.approveTool(item);
        else record.context.rejectTool(item, decision.reason !== undefined ? { message: decision.reason } : {});
      }
      if (!decision) {
        pending.push(item);
        continue;
      }
      const response = new RunToolCallItem(approvalResponse(target.callId, decision), record.currentAgent);
      record.generatedItems.push(response);
      yield* env.emit(itemEvent(response));
    }
    return pending;
  });
}

function decide(onApproval: (context: unknown, item: RunToolApprovalItem) => unknown, item: RunToolApprovalItem, record: RunRecord, env: LoopEnv): Effect.Effect<ApprovalDecision, RunFailure> {
  return fromUserCode(env, () => onApproval(record.context, item) as ApprovalDecision | Promise<ApprovalDecision>).pipe(
    Effect.flatMap((decision) =>
      typeof decision === 'object' && decision !== null && typeof decision.approve === 'boolean'
        ? Effect.succeed(decision)
        : Effect.fail(new UserError(`hostedMcpTool "${String(item.rawItem.providerData?.server_label)}": onApproval must return { approve: boolean, reason? }.`)),
    ),
  );
}

function approvalResponse(requestId: string, decision: ApprovalDecision): HostedToolCallItem {
  return {
    type: 'hosted_tool_call',
    name: 'mcp_approval_response',
    providerData: { approve: decision.approve, approval_request_id: requestId, reason: decision.reason },
  };
}

/** Request ids that already have an `mcp_approval_response` in the run (a resumed turn must not answer twice). */
function answeredRequestIds(record: RunRecord): Set<string> {
  const ids = new Set<string>();
  for (const item of record.generatedItems) {
    if (item.type === 'tool_call_item' && item.rawItem.type === 'hosted_tool_call' && item.rawItem.name === 'mcp_approval_response') {
      const id = (item.rawItem.providerData as { approval_request_id?: unknown } | undefined)?.approval_request_id;
      if (typeof id === 'string') ids.add(id);
    }
  }
  return ids;
}
