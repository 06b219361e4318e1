import { UserError, toolCallIdOf, type ApproveOptions, type RejectOptions, type RunToolApprovalItem } from '@baton/types';

/** A decision the user made in the chat UI (`addToolApprovalResponse` in `useChat`), read from the messages it sends back. */
export interface AiSdkApprovalResponse {
  readonly approvalId: string;
  readonly toolCallId: string;
  /** The tool's name from the UI part (`dynamic-tool`'s `toolName`, or `tool-<name>`). */
  readonly toolName: string | undefined;
  readonly approved: boolean;
  readonly reason: string | undefined;
}

/** The part of a paused run's state this needs: its pending approvals and how to decide them (`RunState` from `@baton/core`). */
export interface AiSdkApprovalTarget {
  getInterruptions(): RunToolApprovalItem[];
  approve(item: RunToolApprovalItem, options?: ApproveOptions): void;
  reject(item: RunToolApprovalItem, options?: RejectOptions): void;
}

export interface ApplyAiSdkApprovalResponsesOptions {
  /** Who decided, kept with each decision (the signed-in user, say). */
  readonly decidedBy?: string;
  /** When; defaults to now. */
  readonly decidedAt?: Date;
}

type Part = Record<string, unknown>;

/**
 * The approval decisions in UI messages: tool parts (`dynamic-tool` or `tool-<name>`) in the state
 * `approval-responded`, in message order. Messages the UI sends back with `useChat` carry them
 * after the user pressed Approve or Reject on a `tool-approval-request`.
 */
export function aiSdkApprovalResponses(messages: readonly unknown[]): AiSdkApprovalResponse[] {
  const out: AiSdkApprovalResponse[] = [];
  for (const message of messages) {
    const parts = typeof message === 'object' && message !== null && Array.isArray((message as { parts?: unknown }).parts) ? ((message as { parts: Part[] }).parts) : [];
    for (const part of parts) {
      if (part.state !== 'approval-responded' || typeof part.approval !== 'object' || part.approval === null) continue;
      const approval = part.approval as Part;
      if (typeof approval.id !== 'string' || typeof approval.approved !== 'boolean' || typeof part.toolCallId !== 'string') continue;
      const type = typeof part.type === 'string' ? part.type : '';
      out.push({
        approvalId: approval.id,
        toolCallId: part.toolCallId,
        toolName: type === 'dynamic-tool' ? (typeof part.toolName === 'string' ? part.toolName : undefined) : type.startsWith('tool-') ? type.slice('tool-'.length) : undefined,
        approved: approval.approved,
        reason: typeof approval.reason === 'string' ? approval.reason : undefined,
      });
    }
  }
  return out;
}

/**
 * Applies the chat's approval decisions to a paused run's state (then resume it with
 * `run(agent, state, { stream: true })`). Each decision is matched to a pending approval by its
 * call id (or approval id); who decided, when and the user's reason are kept with it. Everything is
 * checked before anything is applied: a decision for a call that is not waiting (unknown, or
 * decided already) is a `UserError` naming it and the calls that are waiting, and the state is
 * left untouched. Returns the decisions applied (none when the messages carry none).
 */
export function applyAiSdkApprovalResponses(state: AiSdkApprovalTarget, messages: readonly unknown[], options: ApplyAiSdkApprovalResponsesOptions = {}): AiSdkApprovalResponse[] {
  const responses = aiSdkApprovalResponses(messages);
  const pending = state.getInterruptions();
  const matched = responses.map((response) => {
    const item = pending.find((candidate) => {
      const raw = candidate.rawItem as { id?: unknown };
      const callId = toolCallIdOf(candidate.rawItem);
      return callId === response.toolCallId || callId === response.approvalId || (typeof raw.id === 'string' && raw.id === response.approvalId);
    });
    if (item === undefined) {
      const waiting = pending.map((candidate) => `${candidate.toolName} (${toolCallIdOf(candidate.rawItem)})`).join(', ') || 'none';
      throw new UserError(`No approval is waiting for the tool call ${JSON.stringify(response.toolCallId)} (approval ${JSON.stringify(response.approvalId)}): it is unknown to this run or was decided already. Waiting: ${waiting}.`);
    }
    return { response, item };
  });
  const seen = new Set<RunToolApprovalItem>();
  for (const { response, item } of matched) {
    if (seen.has(item)) throw new UserError(`The chat sent two decisions for the tool call ${JSON.stringify(response.toolCallId)}.`);
    seen.add(item);
  }
  const decidedAt = (options.decidedAt ?? new Date()).toISOString();
  for (const { response, item } of matched) {
    const metadata = { decidedAt, ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }), ...(response.reason === undefined ? {} : { reason: response.reason }) };
    if (response.approved) state.approve(item, metadata);
    else state.reject(item, metadata);
  }
  return responses;
}
