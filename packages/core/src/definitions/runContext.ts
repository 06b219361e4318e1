import { systemClock, type WallClock } from './wallClock.js';
import {
  RunStateError,
  UserError,
  Usage,
  type ApprovalDecisionMetadata,
  type ApprovalTarget,
  type ApproveOptions,
  type RejectOptions,
  type RunContextContract,
  type SerializedApprovalRequest,
  type ToolApprovalRecord,
  type FunctionCallItem,
  type HostedToolCallItem,
  toolCallIdOf,
} from '@baton/types';
import { invocationFingerprint } from './internal/invocationFingerprint.js';
import { hostedMcpApprovalIdentity, hostedMcpApprovalKey, isHostedMcpApprovalKey } from './internal/hostedMcpApprovalKey.js';

/** Anything naming a pending tool call: an approval item or `{ toolName, callId }`. */
export type ApprovalSubject = ApprovalTarget | { toolName?: string; rawItem: FunctionCallItem | HostedToolCallItem | { name: string; callId: string } };

/** An open approval request: after `expiresAt` an undecided call counts as rejected. */
export interface ApprovalRequest {
  expiresAt: string;
}

type Decision = ApprovalDecisionMetadata & { approved: boolean };

export function approvalTargetOf(subject: ApprovalSubject): ApprovalTarget {
  if ('rawItem' in subject) {
    const raw = subject.rawItem;
    return { toolName: subject.toolName ?? raw.name, callId: 'type' in raw && raw.type === 'hosted_tool_call' ? toolCallIdOf(raw) : (raw as { callId: string }).callId };
  }
  return subject;
}

/** Sets an own property (a call id such as `__proto__` must not reach the prototype). */
function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function withoutKey<T>(source: Record<string, T> | undefined, key: string): Record<string, T> {
  const copy: Record<string, T> = {};
  if (source) for (const k of Object.keys(source)) if (k !== key) setOwn(copy, k, source[k]!);
  return copy;
}

function withKey<T>(source: Record<string, T> | undefined, key: string, value: T): Record<string, T> {
  const copy = withoutKey(source, key);
  setOwn(copy, key, value);
  return copy;
}

function withoutCall(list: boolean | string[], callId: string): boolean | string[] {
  return Array.isArray(list) ? list.filter((id) => id !== callId) : list;
}

function withCall(list: boolean | string[], callId: string): string[] {
  const ids = Array.isArray(list) ? list : [];
  return ids.includes(callId) ? ids : [...ids, callId];
}

function toIsoDate(value: Date | string | number, label: string): string {
  const time = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(time)) throw new RunStateError('invalid_state', `${label}: expected a date, got ${String(value)}.`);
  return new Date(time).toISOString();
}

/**
 * A context's approval state: decisions by tool; decisions on remote MCP servers' approval
 * requests, kept apart and keyed by server and remote tool (`hostedMcpApprovalKey`), so a sticky
 * decision for one server's tool holds for that server only and no local tool name reaches them;
 * requests with an expiry by tool then call id; and the invocation each per-call decision was made
 * for (`invocationFingerprint`, runtime only).
 */
interface ApprovalBook {
  readonly approvals: Map<string, ToolApprovalRecord>;
  readonly hostedMcp: Map<string, ToolApprovalRecord>;
  readonly requests: Map<string, Map<string, ApprovalRequest>>;
  readonly invocations: Map<string, Map<string, string>>;
}

/** What a context with no approval state reads; never written (writes make the context's own book). */
const EMPTY_BOOK: ApprovalBook = { approvals: new Map(), hostedMcp: new Map(), requests: new Map(), invocations: new Map() };

/**
 * The context every tool, guardrail and callback receives: the user's own context object, the run's
 * usage, and the approval decisions made so far (per call, or sticky for a whole tool), with who
 * decided, when and why, and when open approval requests expire.
 */
export class RunContext<TContext = unknown> implements RunContextContract<TContext> {
  context: TContext;
  readonly usage: Usage;
  /**
   * The structured input of the agent-tool call this context runs under (the parsed arguments of
   * an \`agent.asTool({ parameters })\` call), as on the reference; undefined elsewhere.
   */
  toolInput?: unknown;
  /** Made on the first decision or request: most runs never need one (a paused run waiting for one holds none). */
  #book: ApprovalBook | undefined;
  #clock: WallClock = systemClock;

  constructor(context: TContext = {} as TContext, usage: Usage = new Usage()) {
    this.context = context;
    this.usage = usage;
  }

  /**
   * `true` approved, `false` rejected, `undefined` undecided. A per-call decision beats a sticky one.
   * An approval request past its expiry counts as rejected unless it was approved before the expiry.
   */
  isToolApproved(target: ApprovalTarget): boolean | undefined {
    const decision = this.#decision(target);
    if (decision?.approved === false) return false;
    if (this.#expiredRequest(target, decision)) return false;
    return decision?.approved;
  }

  getRejectionMessage(toolName: string, callId: string): string | undefined;
  getRejectionMessage(target: ApprovalTarget): string | undefined;
  getRejectionMessage(targetOrToolName: ApprovalTarget | string, callId?: string): string | undefined {
    const target = typeof targetOrToolName === 'string' ? { toolName: targetOrToolName, callId: callId ?? '' } : targetOrToolName;
    const decision = this.#decision(target);
    if (decision?.approved !== false) {
      const expired = this.#expiredRequest(target, decision);
      if (expired) return expiryMessage(target, expired.expiresAt);
      // An exact approval overrides a sticky rejection, and its message with it.
      if (decision?.approved === true) return undefined;
    }
    return rejectionMessageIn(this.#read().approvals.get(target.toolName), target.callId);
  }

  /**
   * The decision on a remote MCP server's approval request (an approval item, or its raw
   * \`hosted_tool_call\`): \`true\` approved, \`false\` rejected, \`undefined\` undecided. Only
   * decisions made for that server and remote tool count; a decision kept under the bare tool name
   * (as older states did) does not, so the request is asked again.
   */
  _getHostedMcpApprovalStatus(item: unknown): boolean | undefined {
    const found = this.#hostedDecision(item);
    return found?.decision?.approved;
  }

  /** The message a rejected MCP approval request is answered with, if the rejection gave one. */
  _getHostedMcpRejectionMessage(item: unknown): string | undefined {
    const found = this.#hostedDecision(item);
    return found?.decision?.approved === false ? rejectionMessageIn(found.record, found.requestId) : undefined;
  }

  #hostedDecision(item: unknown): { record: ToolApprovalRecord | undefined; requestId: string; decision: ReturnType<typeof decisionIn> } | undefined {
    const identity = hostedMcpApprovalIdentity(item);
    const key = identity && hostedMcpApprovalKey(identity);
    if (!key || !identity.requestId) return undefined;
    const record = this.#read().hostedMcp.get(key);
    return { record, requestId: identity.requestId, decision: decisionIn(record, identity.requestId) };
  }

  /** A copy of the decisions on remote MCP servers' approval requests, by server and remote tool. */
  getHostedMcpApprovals(): Record<string, ToolApprovalRecord> {
    const out: Record<string, ToolApprovalRecord> = {};
    for (const [key, record] of this.#read().hostedMcp) setOwn(out, key, structuredClone(record));
    return out;
  }

  /**
   * Replaces the decisions on remote MCP servers' approval requests (restoring a serialized
   * state). Entries under a key that names no server and tool are not decisions and are skipped.
   */
  setHostedMcpApprovals(approvals: Record<string, ToolApprovalRecord>): void {
    this.#book?.hostedMcp.clear();
    this.mergeHostedMcpApprovals(approvals);
  }

  /** Adds serialized MCP approval decisions; a request decided here keeps its decision. */
  mergeHostedMcpApprovals(approvals: Record<string, ToolApprovalRecord>): void {
    for (const key of Object.keys(approvals)) {
      if (!isHostedMcpApprovalKey(key)) continue;
      const current = this.#read().hostedMcp.get(key);
      this.#write().hostedMcp.set(key, current ? mergeRecords(current, approvals[key]!) : structuredClone(approvals[key]!));
    }
  }

  /** Records an approval. With `alwaysApprove`, every later call of the tool is approved too. */
  approveTool(subject: ApprovalSubject, options: ApproveOptions = {}): void {
    const target = approvalTargetOf(subject);
    const request = this.getApprovalRequest(target);
    if (request && this.#clock.currentTimeMillisUnsafe() >= Date.parse(request.expiresAt)) {
      throw new RunStateError('approval_expired', `${expiryMessage(target, request.expiresAt)} It can no longer be approved.`);
    }
    const hosted = hostedTarget(subject, options.alwaysApprove === true);
    if (!hosted) this.#bindInvocation(subject, target.toolName, target.callId);
    const [approvals, { toolName, callId }] = hosted ? [this.#write().hostedMcp, hosted] : [this.#write().approvals, target];
    const record = approvals.get(toolName) ?? { approved: [], rejected: [] };
    const meta: Decision = { approved: true, decidedAt: options.decidedAt ?? this.#nowIso(), ...pickMeta(options) };
    const messages = withoutKey(record.messages, callId);
    if (options.alwaysApprove) {
      // Calls rejected one by one stay rejected: a per-call decision beats the sticky one.
      approvals.set(toolName, {
        approved: true,
        rejected: withoutCall(record.rejected === true ? [] : record.rejected, callId),
        messages,
        decisions: withKey(withKey(record.decisions, '*', meta), callId, meta),
      });
      return;
    }
    approvals.set(toolName, {
      ...record,
      approved: record.approved === true ? true : withCall(record.approved, callId),
      rejected: withoutCall(record.rejected, callId),
      messages,
      decisions: withKey(record.decisions, callId, meta),
    });
  }

  /** Records a rejection, optionally with the message the model receives instead of the tool output. */
  rejectTool(subject: ApprovalSubject, options: RejectOptions = {}): void {
    const target = approvalTargetOf(subject);
    const hosted = hostedTarget(subject, options.alwaysReject === true);
    if (!hosted) this.#bindInvocation(subject, target.toolName, target.callId);
    const [approvals, { toolName, callId }] = hosted ? [this.#write().hostedMcp, hosted] : [this.#write().approvals, target];
    const record = approvals.get(toolName) ?? { approved: [], rejected: [] };
    const meta: Decision = { approved: false, decidedAt: options.decidedAt ?? this.#nowIso(), ...pickMeta(options) };
    const messages = options.message !== undefined ? withKey(record.messages, callId, options.message) : withoutKey(record.messages, callId);
    if (options.alwaysReject) {
      // Calls approved one by one stay approved: a per-call decision beats the sticky one.
      const next: ToolApprovalRecord = {
        approved: withoutCall(record.approved === true ? [] : record.approved, callId),
        rejected: true,
        messages,
        decisions: withKey(withKey(record.decisions, '*', meta), callId, meta),
      };
      if (options.message !== undefined) next.stickyRejectMessage = options.message;
      approvals.set(toolName, next);
      return;
    }
    approvals.set(toolName, {
      ...record,
      approved: withoutCall(record.approved, callId),
      rejected: record.rejected === true ? true : withCall(record.rejected, callId),
      messages,
      decisions: withKey(record.decisions, callId, meta),
    });
  }

  /**
   * The invocation a per-call decision for this call was made on (see `invocationFingerprint`),
   * when it was made on an approval item; the run refuses to apply the decision to another one.
   */
  _decidedInvocation(target: ApprovalTarget): string | undefined {
    return this.#read().invocations.get(target.toolName)?.get(target.callId);
  }

  #bindInvocation(subject: ApprovalSubject, toolName: string, callId: string): void {
    const raw = 'rawItem' in subject ? subject.rawItem : undefined;
    let byCall = this.#read().invocations.get(toolName);
    if (raw === undefined || (raw as { type?: unknown }).type !== 'function_call') {
      byCall?.delete(callId);
      return;
    }
    if (!byCall) this.#write().invocations.set(toolName, (byCall = new Map()));
    byCall.set(callId, invocationFingerprint(toolName, raw as FunctionCallItem));
  }

  /** Gives a pending call's approval request an expiry; after it, an undecided call counts as rejected. */
  setApprovalExpiry(subject: ApprovalSubject, expiresAt: Date | string | number): void {
    const { toolName, callId } = approvalTargetOf(subject);
    let byCall = this.#read().requests.get(toolName);
    if (!byCall) this.#write().requests.set(toolName, (byCall = new Map()));
    byCall.set(callId, { expiresAt: toIsoDate(expiresAt, `Approval expiry for tool "${toolName}" (call ${callId})`) });
  }

  getApprovalRequest(target: ApprovalTarget): ApprovalRequest | undefined {
    const request = this.#read().requests.get(target.toolName)?.get(target.callId);
    return request ? { ...request } : undefined;
  }

  /** The decision recorded for one call (exact or sticky), with who made it, when and why. */
  getApprovalDecision(target: ApprovalTarget): (ApprovalDecisionMetadata & { approved: boolean; sticky: boolean }) | undefined {
    const decision = this.#decision(target);
    return decision ? { ...decision } : undefined;
  }

  /** A copy of every approval record, keyed by tool name. */
  getApprovals(): Record<string, ToolApprovalRecord> {
    const out: Record<string, ToolApprovalRecord> = {};
    for (const [name, record] of this.#read().approvals) setOwn(out, name, structuredClone(record));
    return out;
  }

  /** Replaces the approval records (used when restoring a serialized state). */
  setApprovals(approvals: Record<string, ToolApprovalRecord>): void {
    this.#book?.approvals.clear();
    this.#book?.invocations.clear();
    for (const name of Object.keys(approvals)) this.#write().approvals.set(name, structuredClone(approvals[name]!));
  }

  /** Every approval request with an expiry, by tool name then call id. */
  getApprovalRequests(): Record<string, Record<string, SerializedApprovalRequest>> {
    const out: Record<string, Record<string, SerializedApprovalRequest>> = {};
    for (const [toolName, byCall] of this.#read().requests) {
      const calls: Record<string, SerializedApprovalRequest> = {};
      for (const [callId, request] of byCall) setOwn(calls, callId, { ...request });
      setOwn(out, toolName, calls);
    }
    return out;
  }

  /**
   * Adds serialized approval state to this context without overriding it: a call this context has
   * decided keeps its decision, a sticky decision here beats one from `approvals`, and requests
   * keep the expiry set here. Used by `RunState.fromStringWithContext(..., { contextStrategy: 'merge' })`.
   */
  mergeApprovals(approvals: Record<string, ToolApprovalRecord>, requests: Record<string, Record<string, SerializedApprovalRequest>> = {}): void {
    for (const toolName of Object.keys(approvals)) {
      const current = this.#read().approvals.get(toolName);
      this.#write().approvals.set(toolName, current ? mergeRecords(current, approvals[toolName]!) : structuredClone(approvals[toolName]!));
    }
    for (const toolName of Object.keys(requests)) {
      const calls = requests[toolName]!;
      for (const callId of Object.keys(calls)) {
        if (!this.getApprovalRequest({ toolName, callId })) this.setApprovalExpiry({ toolName, callId }, calls[callId]!.expiresAt);
      }
    }
  }

  /** Replaces the approval requests (used when restoring a serialized state). */
  setApprovalRequests(requests: Record<string, Record<string, SerializedApprovalRequest>>): void {
    this.#book?.requests.clear();
    this.mergeApprovals({}, requests);
  }

  /**
   * The context a fork starts from: a plain \`RunContext\` over the same application context. A
   * subclass that should survive forking (nested agent-tool runs) overrides it.
   */
  protected _createFork(): RunContext<TContext> {
    return new RunContext(this.context);
  }

  /** A child context sharing this one's application context, usage and approvals, with \`toolInput\` set. */
  _forkWithToolInput(toolInput: unknown): RunContext<TContext> {
    const fork = this.#shareInto(this._createFork());
    fork.toolInput = toolInput;
    return fork;
  }

  /** A child context sharing this one's application context, usage and approvals, without \`toolInput\`. */
  _forkWithoutToolInput(): RunContext<TContext> {
    const fork = this.#shareInto(this._createFork());
    delete fork.toolInput;
    return fork;
  }

  #shareInto(target: RunContext<TContext>): RunContext<TContext> {
    if (!(target instanceof RunContext)) throw new UserError('RunContext._createFork must return a RunContext.');
    target.context = this.context;
    (target as { usage: Usage }).usage = this.usage;
    // One book for the parent and its forks: a decision made in either counts in both.
    target.#book = this.#write();
    target.#clock = this.#clock;
    return target;
  }

  /** The reference's name for \`setApprovals\`. */
  _rebuildApprovals(approvals: Record<string, ToolApprovalRecord>): void {
    this.setApprovals(approvals);
  }

  /** The reference's name for \`mergeApprovals\` (approval records only). */
  _mergeApprovals(approvals: Record<string, ToolApprovalRecord>): void {
    this.mergeApprovals(approvals);
  }

  toJSON(): {
    toolInput?: unknown;
    context: TContext;
    usage: ReturnType<Usage['toJSON']>;
    approvals: Record<string, ToolApprovalRecord>;
    approvalRequests?: Record<string, Record<string, SerializedApprovalRequest>>;
  } {
    // The public view lists MCP request decisions under the remote tool's name, with the tools'
    // (as the reference shows them); a run state keeps them scoped (`getHostedMcpApprovals`).
    const approvals = this.getApprovals();
    for (const [key, record] of this.#read().hostedMcp) {
      const toolName = (JSON.parse(key) as [string, string, string])[2];
      setOwn(approvals, toolName, Object.hasOwn(approvals, toolName) ? mergeRecords(approvals[toolName]!, record) : structuredClone(record));
    }
    const json: ReturnType<RunContext<TContext>['toJSON']> = { context: this.context, usage: this.usage.toJSON(), approvals };
    if (this.#read().requests.size > 0) json.approvalRequests = this.getApprovalRequests();
    if (this.toolInput !== undefined) json.toolInput = this.toolInput;
    return json;
  }

  /**
   * The clock approval expiry and decision times read (default: the system's). A run sets its
   * fiber's clock, so an Effect test drives expiry with `TestClock`.
   */
  useClock(clock: WallClock): void {
    if (typeof clock?.currentTimeMillisUnsafe !== 'function') throw new UserError('RunContext.useClock: expected a clock with currentTimeMillisUnsafe().');
    this.#clock = clock;
  }

  /** The time this context reads, in milliseconds. */
  now(): number {
    return this.#clock.currentTimeMillisUnsafe();
  }

  #read(): ApprovalBook {
    return this.#book ?? EMPTY_BOOK;
  }

  #write(): ApprovalBook {
    return (this.#book ??= { approvals: new Map(), hostedMcp: new Map(), requests: new Map(), invocations: new Map() });
  }

  #nowIso(): string {
    return new Date(this.#clock.currentTimeMillisUnsafe()).toISOString();
  }

  #decision(target: ApprovalTarget): (Decision & { sticky: boolean }) | undefined {
    return decisionIn(this.#read().approvals.get(target.toolName), target.callId);
  }

  /** The request, when it has expired and no approval came before the expiry. */
  #expiredRequest(target: ApprovalTarget, decision: Decision | undefined): ApprovalRequest | undefined {
    const request = this.#read().requests.get(target.toolName)?.get(target.callId);
    if (!request) return undefined;
    const deadline = Date.parse(request.expiresAt);
    if (this.#clock.currentTimeMillisUnsafe() < deadline) return undefined;
    if (decision?.approved === true) {
      const decidedAt = decision.decidedAt === undefined ? Number.NaN : Date.parse(decision.decidedAt);
      // A decision of unknown time counts as made in time.
      if (!Number.isFinite(decidedAt) || decidedAt < deadline) return undefined;
    }
    return request;
  }
}

function decisionIn(record: ToolApprovalRecord | undefined, callId: string): (Decision & { sticky: boolean }) | undefined {
  if (!record) return undefined;
  const decisions = record.decisions;
  // Every decision is kept per call in `decisions`, so an exact decision survives later sticky ones.
  const exact = decisions !== undefined && Object.hasOwn(decisions, callId) ? decisions[callId] : undefined;
  if (exact) return { ...exact, sticky: false };
  if (Array.isArray(record.approved) && record.approved.includes(callId)) return { approved: true, sticky: false };
  if (Array.isArray(record.rejected) && record.rejected.includes(callId)) return { approved: false, sticky: false };
  const sticky = decisions !== undefined && Object.hasOwn(decisions, '*') ? decisions['*'] : undefined;
  if (record.approved === true) return { ...sticky, approved: true, sticky: true };
  if (record.rejected === true) return { ...sticky, approved: false, sticky: true };
  return undefined;
}

/** The rejection message for a call a record rejects: its own, else the sticky rejection's. */
function rejectionMessageIn(record: ToolApprovalRecord | undefined, callId: string): string | undefined {
  if (!record) return undefined;
  const perCall = record.messages !== undefined && Object.hasOwn(record.messages, callId) ? record.messages[callId] : undefined;
  if (perCall !== undefined) return perCall;
  return record.rejected === true ? record.stickyRejectMessage : undefined;
}

/**
 * Where a decision on a remote MCP server's approval request is kept: under the server and remote
 * tool, by request id. `undefined` for any other call. A hosted call that is not an MCP approval
 * request may be decided once, not for good (nothing would scope the sticky decision), and an MCP
 * request naming no server or no tool cannot be decided at all.
 */
function hostedTarget(subject: ApprovalSubject, sticky: boolean): ApprovalTarget | undefined {
  if (typeof subject !== 'object' || subject === null || !('rawItem' in subject) || (subject.rawItem as { type?: unknown }).type !== 'hosted_tool_call') return undefined;
  const identity = hostedMcpApprovalIdentity(subject.rawItem);
  if (!identity) {
    if (sticky) throw new UserError('Persistent hosted approval decisions require valid MCP approval request provider data.');
    return undefined;
  }
  const key = hostedMcpApprovalKey(identity);
  if (!key) throw new UserError('Hosted MCP approval decisions require a non-empty server label and tool name.');
  return { toolName: key, callId: identity.requestId ?? approvalTargetOf(subject).callId };
}

/**
 * Throws the \`UserError\` \`approveTool\` / \`rejectTool\` would for a decision that cannot be
 * kept (an MCP approval request naming no server or tool, say), without recording anything.
 */
export function assertDecidable(subject: ApprovalSubject, sticky: boolean): void {
  hostedTarget(subject, sticky);
}

function expiryMessage(target: ApprovalTarget, expiresAt: string): string {
  return `The approval request for tool "${target.toolName}" (call ${target.callId}) expired at ${expiresAt} before it was approved; the call was treated as rejected.`;
}

function pickMeta(options: ApproveOptions | RejectOptions): { decidedBy?: string; reason?: string } {
  const meta: { decidedBy?: string; reason?: string } = {};
  if (options.decidedBy !== undefined) meta.decidedBy = options.decidedBy;
  if (options.reason !== undefined) meta.reason = options.reason;
  return meta;
}

interface NormalizedRecord {
  sticky: { approved: boolean; meta: Decision | undefined; message: string | undefined } | undefined;
  calls: Map<string, { approved: boolean; meta: Decision | undefined; message: string | undefined }>;
}

function normalize(record: ToolApprovalRecord): NormalizedRecord {
  const calls: NormalizedRecord['calls'] = new Map();
  const meta = (id: string) => (record.decisions !== undefined && Object.hasOwn(record.decisions, id) ? record.decisions[id] : undefined);
  const message = (id: string) => (record.messages !== undefined && Object.hasOwn(record.messages, id) ? record.messages[id] : undefined);
  if (Array.isArray(record.approved)) for (const id of record.approved) calls.set(id, { approved: true, meta: meta(id), message: undefined });
  if (Array.isArray(record.rejected)) for (const id of record.rejected) calls.set(id, { approved: false, meta: meta(id), message: message(id) });
  for (const id of Object.keys(record.decisions ?? {})) {
    if (id !== '*' && !calls.has(id)) calls.set(id, { approved: meta(id)!.approved, meta: meta(id), message: message(id) });
  }
  const sticky =
    record.approved === true
      ? { approved: true, meta: meta('*'), message: undefined }
      : record.rejected === true
        ? { approved: false, meta: meta('*'), message: record.stickyRejectMessage }
        : undefined;
  return { sticky, calls };
}

function denormalize({ sticky, calls }: NormalizedRecord): ToolApprovalRecord {
  const approved: string[] = [];
  const rejected: string[] = [];
  const messages: Record<string, string> = {};
  const decisions: Record<string, Decision> = {};
  for (const [id, call] of calls) {
    (call.approved ? approved : rejected).push(id);
    if (call.message !== undefined) setOwn(messages, id, call.message);
    if (call.meta) setOwn(decisions, id, call.meta);
  }
  if (sticky?.meta) setOwn(decisions, '*', sticky.meta);
  const record: ToolApprovalRecord = {
    approved: sticky?.approved === true ? true : approved,
    rejected: sticky?.approved === false ? true : rejected,
    messages,
    decisions,
  };
  if (sticky?.approved === false && sticky.message !== undefined) record.stickyRejectMessage = sticky.message;
  return record;
}

/** `current` wins where both decided; `incoming` fills in what `current` does not know. */
function mergeRecords(current: ToolApprovalRecord, incoming: ToolApprovalRecord): ToolApprovalRecord {
  const a = normalize(current);
  const b = normalize(structuredClone(incoming));
  for (const [id, call] of b.calls) if (!a.calls.has(id)) a.calls.set(id, call);
  return denormalize({ sticky: a.sticky ?? b.sticky, calls: a.calls });
}
