import {
  Usage,
  type ApprovalTarget,
  type ApproveOptions,
  type RejectOptions,
  type RunContextContract,
  type ToolApprovalRecord,
} from '@baton/types';

/** Anything naming a pending tool call: an approval item or `{ toolName, callId }`. */
export type ApprovalSubject = ApprovalTarget | { toolName?: string; rawItem: { name: string; callId: string } };

function targetOf(subject: ApprovalSubject): ApprovalTarget {
  if ('rawItem' in subject) return { toolName: subject.toolName ?? subject.rawItem.name, callId: subject.rawItem.callId };
  return subject;
}

function withoutCall(list: boolean | string[], callId: string): boolean | string[] {
  return Array.isArray(list) ? list.filter((id) => id !== callId) : list;
}

function withCall(list: boolean | string[], callId: string): string[] {
  const ids = Array.isArray(list) ? list : [];
  return ids.includes(callId) ? ids : [...ids, callId];
}

/**
 * The context every tool, guardrail and callback receives: the user's own context object, the run's
 * usage, and the approval decisions made so far (per call, or sticky for a whole tool).
 */
export class RunContext<TContext = unknown> implements RunContextContract<TContext> {
  context: TContext;
  readonly usage: Usage;
  readonly #approvals = new Map<string, ToolApprovalRecord>();

  constructor(context: TContext = {} as TContext, usage: Usage = new Usage()) {
    this.context = context;
    this.usage = usage;
  }

  /** `true` approved, `false` rejected, `undefined` undecided. A per-call decision beats a sticky one. */
  isToolApproved(target: ApprovalTarget): boolean | undefined {
    const record = this.#approvals.get(target.toolName);
    if (!record) return undefined;
    // Every decision is kept per call in `decisions`, so an exact decision survives later sticky ones.
    const exact = record.decisions?.[target.callId];
    if (exact) return exact.approved;
    if (Array.isArray(record.approved) && record.approved.includes(target.callId)) return true;
    if (Array.isArray(record.rejected) && record.rejected.includes(target.callId)) return false;
    if (record.approved === true) return true;
    if (record.rejected === true) return false;
    return undefined;
  }

  getRejectionMessage(target: ApprovalTarget): string | undefined {
    const record = this.#approvals.get(target.toolName);
    if (!record) return undefined;
    const perCall = record.messages?.[target.callId];
    if (perCall !== undefined) return perCall;
    return record.rejected === true ? record.stickyRejectMessage : undefined;
  }

  /** Records an approval. With `alwaysApprove`, every later call of the tool is approved too. */
  approveTool(subject: ApprovalSubject, options: ApproveOptions = {}): void {
    const { toolName, callId } = targetOf(subject);
    const record = this.#record(toolName);
    const meta = { approved: true, decidedAt: options.decidedAt ?? new Date().toISOString(), ...pickMeta(options) };
    const messages = { ...record.messages };
    delete messages[callId];
    if (options.alwaysApprove) {
      // Calls rejected one by one stay rejected: a per-call decision beats the sticky one.
      this.#approvals.set(toolName, {
        approved: true,
        rejected: withoutCall(record.rejected === true ? [] : record.rejected, callId),
        messages,
        decisions: { ...record.decisions, '*': meta, [callId]: meta },
      });
      return;
    }
    this.#approvals.set(toolName, {
      ...record,
      approved: record.approved === true ? true : withCall(record.approved, callId),
      rejected: withoutCall(record.rejected, callId),
      messages,
      decisions: { ...record.decisions, [callId]: meta },
    });
  }

  /** Records a rejection, optionally with the message the model receives instead of the tool output. */
  rejectTool(subject: ApprovalSubject, options: RejectOptions = {}): void {
    const { toolName, callId } = targetOf(subject);
    const record = this.#record(toolName);
    const meta = { approved: false, decidedAt: options.decidedAt ?? new Date().toISOString(), ...pickMeta(options) };
    const messages = { ...record.messages };
    if (options.message !== undefined) messages[callId] = options.message;
    else delete messages[callId];
    if (options.alwaysReject) {
      // Calls approved one by one stay approved: a per-call decision beats the sticky one.
      const next: ToolApprovalRecord = {
        approved: withoutCall(record.approved === true ? [] : record.approved, callId),
        rejected: true,
        messages,
        decisions: { ...record.decisions, '*': meta, [callId]: meta },
      };
      if (options.message !== undefined) next.stickyRejectMessage = options.message;
      this.#approvals.set(toolName, next);
      return;
    }
    this.#approvals.set(toolName, {
      ...record,
      approved: withoutCall(record.approved, callId),
      rejected: record.rejected === true ? true : withCall(record.rejected, callId),
      messages,
      decisions: { ...record.decisions, [callId]: meta },
    });
  }

  /** A copy of every approval record, keyed by tool name. */
  getApprovals(): Record<string, ToolApprovalRecord> {
    return structuredClone(Object.fromEntries(this.#approvals));
  }

  /** Replaces the approval records (used when restoring a serialized state). */
  setApprovals(approvals: Record<string, ToolApprovalRecord>): void {
    this.#approvals.clear();
    for (const [name, record] of Object.entries(approvals)) this.#approvals.set(name, structuredClone(record));
  }

  toJSON(): { context: TContext; usage: ReturnType<Usage['toJSON']>; approvals: Record<string, ToolApprovalRecord> } {
    return { context: this.context, usage: this.usage.toJSON(), approvals: this.getApprovals() };
  }

  #record(toolName: string): ToolApprovalRecord {
    return this.#approvals.get(toolName) ?? { approved: [], rejected: [] };
  }
}

function pickMeta(options: ApproveOptions | RejectOptions): { decidedBy?: string; reason?: string } {
  const meta: { decidedBy?: string; reason?: string } = {};
  if (options.decidedBy !== undefined) meta.decidedBy = options.decidedBy;
  if (options.reason !== undefined) meta.reason = options.reason;
  return meta;
}
