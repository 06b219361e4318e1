import type { AgentInputItem } from '@baton/types';

/** Plain JSON: what workflow inputs and outputs are made of (DBOS stores them in PostgreSQL). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A human's decision on one pending call, as data: it crosses processes before any agent graph is loaded. */
export interface ApprovalDecision {
  readonly callId: string;
  readonly approved: boolean;
  readonly decidedBy?: string;
  readonly reason?: string;
  /** ISO time the decision was made (the client's clock). */
  readonly decidedAt: string;
  /** For a rejection: the text the model gets instead of the tool's output. */
  readonly message?: string;
}

/** What one workflow of a run does: start it, or continue it from a paused state with decisions. */
export type RunWorkflowStart =
  | { readonly kind: 'input'; readonly input: string | AgentInputItem[] }
  | { readonly kind: 'resume'; readonly state: string; readonly decisions: readonly ApprovalDecision[] };

export interface RunWorkflowInput {
  readonly runId: string;
  /** The name the agent was registered under in the worker. */
  readonly agent: string;
  /** 0 for the first workflow, then 1, 2, ... for each resume. */
  readonly revision: number;
  readonly start: RunWorkflowStart;
  /** The run context's value (plain JSON), for the first workflow. */
  readonly context?: Json;
  readonly maxTurns?: number;
  /** Pending approvals of this run expire this long after it pauses (over the worker's `approvalTtlMs`). */
  readonly approvalTtlMs?: number;
  /** Drawn when the run is started, kept by its resumes: tells its events from those of a deleted run of the same id (absent: runs started before incarnations). */
  readonly incarnation?: string;
}

export interface PendingApproval {
  readonly callId: string;
  readonly toolName: string;
  readonly arguments: string | undefined;
  /** The agent whose call it is. */
  readonly agent: string;
  readonly expiresAt?: string;
}

export type RunWorkflowOutput =
  | { readonly status: 'completed'; readonly runId: string; readonly revision: number; readonly finalOutput: Json; readonly lastAgent: string | undefined }
  | { readonly status: 'paused'; readonly runId: string; readonly revision: number; readonly pending: readonly PendingApproval[]; readonly state: string }
  | { readonly status: 'failed'; readonly runId: string; readonly revision: number; readonly error: { readonly name: string; readonly message: string; readonly report?: Json } };
