import { serializedItemAgent } from '@baton/types/internal';
import { RunContext, RunState } from '@baton/core';
import { hostedMcpApprovalIdentity, hostedMcpApprovalKey } from '@baton/core/internal';
import { toolCallIdOf, type FunctionCallItem, type HostedToolCallItem, type SerializedAgentRef, type SerializedRunState, type ToolApprovalRecord } from '@baton/types';
import { readState } from './internal/read.js';

/** Where an approval stands. `expired`: the request expired before anyone approved it (it counts as rejected). */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired';

/** One approval: the call it is about, and the decision with who made it, when and why. */
export interface ApprovalRecord {
  toolName: string;
  callId: string;
  status: ApprovalStatus;
  /** Whether the call is still waiting in the state's interruptions. */
  pending: boolean;
  /** The agent whose tool it is (for a pending call). */
  agent?: SerializedAgentRef;
  /** The call's arguments as the model wrote them (for a pending call). */
  arguments?: string;
  /** Keys (`<toolName>:<callId>`) of the paused agent-tool runs it sits in, outermost first. */
  nestedIn: string[];
  decidedBy?: string;
  decidedAt?: string;
  reason?: string;
  /** A decision made for the whole tool (`alwaysApprove` / `alwaysReject`). */
  sticky?: boolean;
  /** The text the model receives instead of the output (rejections and expiries). */
  message?: string;
  expiresAt?: string;
}

/**
 * Every approval a state knows of: the pending ones (in the order of its interruptions, including
 * those inside paused agent-tool runs), then past decisions for calls no longer pending. Needs no
 * agent graph. A string is read (and migrated) like `RunState.fromString` would.
 */
export function approvalRecords(state: RunState<any, any> | string): ApprovalRecord[] {
  const json = typeof state === 'string' ? readState(state) : state.toJSON();
  return recordsOf(json);
}

/** Approval records from a serialized state (current schema version). */
export function recordsOf(json: SerializedRunState): ApprovalRecord[] {
  const context = new RunContext();
  context.setApprovals(json.context.approvals as Record<string, ToolApprovalRecord>);
  context.setApprovalRequests(json.context.approvalRequests ?? {});
  // Decisions on remote MCP servers' requests are kept per server and remote tool, by request id.
  const hostedMcp = new RunContext();
  hostedMcp.setApprovals((json.context.hostedMcpApprovals ?? {}) as Record<string, ToolApprovalRecord>);
  const nesting = nestedCallPaths(json);
  const out: ApprovalRecord[] = [];
  const seen = new Set<string>();
  const interruptions = json.currentStep?.type === 'next_step_interruption' ? json.currentStep.interruptions : [];
  for (const item of interruptions) {
    const callId = toolCallIdOf(item.rawItem as FunctionCallItem | HostedToolCallItem);
    seen.add(key(item.toolName, callId));
    const scoped = hostedMcpScope(item.rawItem);
    out.push({
      ...(scoped ? { ...describe(hostedMcp, scoped.key, scoped.requestId), toolName: item.toolName, callId } : describe(context, item.toolName, callId)),
      pending: true,
      agent: serializedItemAgent(item, json),
      arguments: argumentsOf(item.rawItem),
      nestedIn: nesting.get(callId) ?? [],
    });
  }
  for (const toolName of Object.keys(json.context.approvals)) {
    const decisions = json.context.approvals[toolName]!.decisions ?? {};
    for (const callId of Object.keys(decisions)) {
      if (callId === '*' || seen.has(key(toolName, callId))) continue;
      seen.add(key(toolName, callId));
      out.push({ ...describe(context, toolName, callId), pending: false, nestedIn: [] });
    }
  }
  return out;
}

/** Where a remote MCP server's approval request is decided: its server-and-tool key and request id. */
function hostedMcpScope(rawItem: unknown): { key: string; requestId: string } | undefined {
  const identity = hostedMcpApprovalIdentity(rawItem);
  const key = identity && hostedMcpApprovalKey(identity);
  return key && identity.requestId ? { key, requestId: identity.requestId } : undefined;
}

function describe(context: RunContext, toolName: string, callId: string): Omit<ApprovalRecord, 'pending' | 'nestedIn'> {
  const target = { toolName, callId };
  const approved = context.isToolApproved(target);
  const decision = context.getApprovalDecision(target);
  const request = context.getApprovalRequest(target);
  const expired = request !== undefined && approved === false && decision?.approved !== false;
  const record: Omit<ApprovalRecord, 'pending' | 'nestedIn'> = {
    toolName,
    callId,
    status: expired ? 'expired' : approved === true ? 'approved' : approved === false ? 'rejected' : 'pending',
  };
  if (decision && !expired) {
    if (decision.decidedBy !== undefined) record.decidedBy = decision.decidedBy;
    if (decision.decidedAt !== undefined) record.decidedAt = decision.decidedAt;
    if (decision.reason !== undefined) record.reason = decision.reason;
    record.sticky = decision.sticky;
  }
  if (approved === false) {
    const message = context.getRejectionMessage(target);
    if (message !== undefined) record.message = message;
  }
  if (request) record.expiresAt = request.expiresAt;
  return record;
}

/** For each call id pending inside nested agent-tool runs: the nested-run keys leading to it. */
function nestedCallPaths(json: SerializedRunState, prefix: string[] = [], out = new Map<string, string[]>()): Map<string, string[]> {
  for (const nestedKey of Object.keys(json.pendingAgentToolRuns)) {
    let nested: SerializedRunState;
    try {
      nested = readState(json.pendingAgentToolRuns[nestedKey]!);
    } catch {
      continue; // reported by checkResumable / fromString; records still list the outer approvals
    }
    const path = [...prefix, nestedKey];
    const step = nested.currentStep;
    if (step?.type === 'next_step_interruption') {
      for (const item of step.interruptions) {
        const callId = toolCallIdOf(item.rawItem as FunctionCallItem | HostedToolCallItem);
        if (!out.has(callId) || out.get(callId)!.length < path.length) out.set(callId, path);
      }
    }
    nestedCallPaths(nested, path, out);
  }
  return out;
}

function key(toolName: string, callId: string): string {
  return `${toolName}\u0000${callId}`;
}

/**
 * Gives every pending approval of `state` that has no expiry yet one: `ttlMs` from now, or
 * `expiresAt`. Resuming after it treats a call nobody approved in time as rejected. Returns how many
 * requests got an expiry.
 */
export function setApprovalExpiries(state: RunState<any, any>, options: { ttlMs: number } | { expiresAt: Date | string }): number {
  // `ttlMs` counts from the state's clock (the run's: TestClock in an Effect test).
  const expiresAt = 'ttlMs' in options ? state.context.now() + options.ttlMs : options.expiresAt;
  let count = 0;
  for (const item of state.getInterruptions()) {
    if (state.context.getApprovalRequest({ toolName: item.toolName, callId: item.callId })) continue;
    state.setApprovalExpiry(item, expiresAt);
    count++;
  }
  return count;
}

/**
 * What a pending call will do, as text: a function call's JSON arguments; for a local tool's call
 * (shell, apply-patch, computer), its commands, operation or actions as JSON.
 */
function argumentsOf(raw: Record<string, unknown>): string {
  if (typeof raw.arguments === 'string') return raw.arguments;
  const what = raw.type === 'shell_call' ? raw.action : raw.type === 'apply_patch_call' ? raw.operation : raw.type === 'computer_call' ? (raw.actions ?? raw.action) : undefined;
  return what === undefined ? '' : JSON.stringify(what);
}
