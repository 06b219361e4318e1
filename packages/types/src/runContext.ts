import type { Usage } from './usage.js';

/** Who decided an approval, when and why (kept with the decision and serialized with the state). */
export interface ApprovalDecisionMetadata {
  decidedBy?: string;
  reason?: string;
  /** ISO timestamp; defaults to the time of the decision. */
  decidedAt?: string;
}

export interface ApproveOptions extends ApprovalDecisionMetadata {
  /** Approve this tool for every later call in the run. */
  alwaysApprove?: boolean;
}

export interface RejectOptions extends ApprovalDecisionMetadata {
  /** Reject this tool for every later call in the run. */
  alwaysReject?: boolean;
  /** The text sent to the model as this call's output instead of the default rejection message. */
  message?: string;
}

/** Decisions for one tool: `true` is sticky (always), a list holds per-call decisions. */
export interface ToolApprovalRecord {
  approved: boolean | string[];
  rejected: boolean | string[];
  /** Per-call rejection messages. */
  messages?: Record<string, string>;
  stickyRejectMessage?: string;
  /** Per-call (or `'*'` for sticky) decision metadata. */
  decisions?: Record<string, ApprovalDecisionMetadata & { approved: boolean }>;
}

/** Identifies a pending approval: a tool name and a call id. */
export interface ApprovalTarget {
  toolName: string;
  callId: string;
}

/** The context object every tool, guardrail and callback receives. Implemented by core's `RunContext`. */
export interface RunContextContract<TContext = unknown> {
  context: TContext;
  readonly usage: Usage;
  isToolApproved(target: ApprovalTarget): boolean | undefined;
  getRejectionMessage(target: ApprovalTarget): string | undefined;
}
