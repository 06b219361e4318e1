import { readRunStateJson } from '@baton/types/internal';
import { RunStateError, UserError, type ReasoningItemIdPolicy, type Usage, type AgentInputItem, type ApproveOptions, type InputGuardrailResult, type ModelResponse, type OutputGuardrailResult, type RejectOptions, type RunItem, type RunToolApprovalItem, type SerializedRunState, type ToolInputGuardrailResult, type ToolOutputGuardrailResult, type Tool } from '@baton/types';
import type { Agent } from '../definitions/agent.js';
import type { SerializedTrace } from '../definitions/runTracing.js';
import { inputToItems, validateRunInput } from './internal/items.js';
import { continuationItems } from './internal/continuationItems.js';
import { RunContext, approvalTargetOf, assertDecidable, type ApprovalSubject } from '../definitions/runContext.js';
import { newRunRecord, pendingRunKey, type AgentToolInvocation, type NextStep, type RunRecord } from './internal/runRecord.js';
import { serializeRunState, writeRunState } from './internal/serialization/writeState.js';
import { rehydrateToolSearchRuntimeTools, toolSearchRuntimeTools } from './internal/toolSearchRuntime.js';
import { restoreRunState, type ContextStrategy, type RestoreOptions } from './internal/serialization/readState.js';
import { detachedApprovalItem } from './internal/approvalSnapshot.js';
import { requireUniqueNamesForLegacyState } from './internal/legacyAgentNames.js';

let readRecord: (state: RunState<any, any>) => RunRecord;
let wrapRecord: (record: RunRecord) => RunState<any, any>;

/**
 * Everything needed to continue a run, with read-only getters to inspect it after an error or a
 * pause, and `approve` / `reject` to decide pending tool calls before resuming with `run(agent, state)`.
 */
export class RunState<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>> {
  #record: RunRecord<TContext>;

  static {
    readRecord = (state) => state.#record;
    wrapRecord = (record) => {
      const state = new RunState(record.context, record.originalInput, record.rootAgent, record.maxTurns);
      state.#record = record;
      return state;
    };
  }

  constructor(context: RunContext<TContext>, originalInput: string | AgentInputItem[], startingAgent: TAgent, maxTurns: number | null) {
    this.#record = newRunRecord(context, originalInput, startingAgent, maxTurns);
  }

  /**
   * The run's id: made when the run first starts and kept in the serialized state, so a resumed
   * run has the same one (tools receive it as `details.runId`). Undefined before the first start,
   * and for a state written without one until it runs again.
   */
  get runId(): string | undefined {
    return this.#record.runId;
  }

  /** Turns that reached the model (a resumed approval does not count as a new turn). */
  get currentTurn(): number {
    return this.#record.currentTurn;
  }

  get currentAgent(): TAgent {
    return this.#record.currentAgent as TAgent;
  }

  get maxTurns(): number | null {
    return this.#record.maxTurns;
  }

  get usage(): Usage {
    return this.#record.context.usage;
  }

  get context(): RunContext<TContext> {
    return this.#record.context;
  }

  get originalInput(): string | AgentInputItem[] {
    return this.#record.originalInput;
  }

  /** Items generated so far (a copy). */
  get generatedItems(): RunItem[] {
    return [...this.#record.generatedItems];
  }

  get modelResponses(): ModelResponse[] {
    return [...this.#record.modelResponses];
  }

  get inputGuardrailResults(): InputGuardrailResult[] {
    return [...this.#record.inputGuardrailResults];
  }

  get outputGuardrailResults(): OutputGuardrailResult[] {
    return [...this.#record.outputGuardrailResults];
  }

  get toolInputGuardrailResults(): ToolInputGuardrailResult[] {
    return [...this.#record.toolInputGuardrailResults];
  }

  get toolOutputGuardrailResults(): ToolOutputGuardrailResult[] {
    return [...this.#record.toolOutputGuardrailResults];
  }

  // The reference's underscore fields, so programs (and tests) written against it run unchanged:
  // they read and write the live record. A write is checked (a list must be a list, the turn a
  // whole number, the agent an Agent), so a wrong value fails where it is set, not later in the loop.

  get _currentTurn(): number {
    return this.#record.currentTurn;
  }

  set _currentTurn(turn: number) {
    if (!Number.isInteger(turn) || turn < 0) throw new UserError(`RunState._currentTurn must be a whole number, got ${String(turn)}.`);
    this.#record.currentTurn = turn;
  }

  /** Whether the run stopped inside a turn (counted, its tools not all settled); false once a cancelled turn's tools were drained. */
  get _currentTurnInProgress(): boolean {
    return this.#record.turnInProgress === true;
  }

  set _currentTurnInProgress(inProgress: boolean) {
    if (typeof inProgress !== 'boolean') throw new UserError(`RunState._currentTurnInProgress must be a boolean, got ${String(inProgress)}.`);
    this.#record.turnInProgress = inProgress;
  }

  get _currentAgent(): TAgent {
    return this.#record.currentAgent as TAgent;
  }

  set _currentAgent(agent: TAgent) {
    this.setCurrentAgent(agent);
  }

  /** Switches the agent handling the run (the next turn runs it). */
  setCurrentAgent(agent: TAgent): void {
    if (typeof agent !== 'object' || agent === null || typeof (agent as { name?: unknown }).name !== 'string') {
      throw new UserError('RunState.setCurrentAgent: expected an Agent.');
    }
    this.#record.currentAgent = agent;
  }

  get _originalInput(): string | AgentInputItem[] {
    return this.#record.originalInput;
  }

  set _originalInput(input: string | AgentInputItem[]) {
    validateRunInput(input);
    this.#record.originalInput = input;
  }

  get _maxTurns(): number | null {
    return this.#record.maxTurns;
  }

  /** Raises (or lowers) the turn limit of a state before resuming it, as the reference allows: a non-negative whole number, or null for none. */
  set _maxTurns(maxTurns: number | null) {
    if (maxTurns !== null && (!Number.isInteger(maxTurns) || maxTurns < 0)) {
      throw new UserError(`RunState._maxTurns must be a non-negative whole number or null, got ${String(maxTurns)}.`);
    }
    this.#record.maxTurns = maxTurns;
  }

  get _context(): RunContext<TContext> {
    return this.#record.context;
  }

  get _generatedItems(): RunItem[] {
    return this.#record.generatedItems;
  }

  set _generatedItems(items: RunItem[]) {
    this.#record.generatedItems = listOf(items, '_generatedItems');
  }

  get _modelResponses(): ModelResponse[] {
    return this.#record.modelResponses;
  }

  set _modelResponses(responses: ModelResponse[]) {
    this.#record.modelResponses = listOf(responses, '_modelResponses');
  }

  get _inputGuardrailResults(): InputGuardrailResult[] {
    return this.#record.inputGuardrailResults;
  }

  set _inputGuardrailResults(results: InputGuardrailResult[]) {
    this.#record.inputGuardrailResults = listOf(results, '_inputGuardrailResults');
  }

  get _outputGuardrailResults(): OutputGuardrailResult[] {
    return this.#record.outputGuardrailResults;
  }

  set _outputGuardrailResults(results: OutputGuardrailResult[]) {
    this.#record.outputGuardrailResults = listOf(results, '_outputGuardrailResults');
  }

  get _toolInputGuardrailResults(): ToolInputGuardrailResult[] {
    return this.#record.toolInputGuardrailResults;
  }

  set _toolInputGuardrailResults(results: ToolInputGuardrailResult[]) {
    this.#record.toolInputGuardrailResults = listOf(results, '_toolInputGuardrailResults');
  }

  get _toolOutputGuardrailResults(): ToolOutputGuardrailResult[] {
    return this.#record.toolOutputGuardrailResults;
  }

  set _toolOutputGuardrailResults(results: ToolOutputGuardrailResult[]) {
    this.#record.toolOutputGuardrailResults = listOf(results, '_toolOutputGuardrailResults');
  }

  /** True while no run is executing this state (a state is resumed by one run at a time). */
  get _noActiveAgentRun(): boolean {
    return !this.#record.running;
  }

  /**
   * What the last turn decided, in the reference's shape: \`{ type }\`, with \`output\` for a final
   * output and \`data.interruptions\` for a pause. Setting it (for example to a pause with approval
   * items) decides what resuming the state does next.
   */
  get _currentStep(): ReferenceNextStep | undefined {
    const step = this.#record.currentStep;
    if (step === undefined) return undefined;
    if (step.type === 'next_step_interruption') return { type: step.type, data: { interruptions: step.interruptions } };
    if (step.type === 'next_step_final_output') return { type: step.type, output: step.output };
    return { type: step.type };
  }

  set _currentStep(step: ReferenceNextStep | undefined) {
    this.#record.currentStep = nextStepOf(step);
  }

  /** The original input and every generated item, as protocol items (what a follow-up run receives). */
  get history(): AgentInputItem[] {
    return [...inputToItems(this.#record.originalInput), ...continuationItems(this.#record.generatedItems, this.#record.reasoningItemIdPolicy)];
  }

  /** The paused nested agent-tool runs, keyed `<toolName>:<callId>` (the live map). */
  get _pendingAgentToolRuns(): Map<string, string> {
    return this.#record.pendingAgentToolRuns.asMap();
  }

  /**
   * The agent-tool call this (nested) run answered: set by `agent.asTool()` when the nested run
   * completes, so a `customOutputExtractor` can tell which call it answers. Never serialized;
   * cleared when a run starts from this state.
   */
  get _agentToolInvocation(): AgentToolInvocation | undefined {
    return this.#record.agentToolInvocation;
  }

  set _agentToolInvocation(invocation: AgentToolInvocation | undefined) {
    if (invocation !== undefined && (typeof invocation !== 'object' || invocation === null || typeof invocation.toolName !== 'string')) {
      throw new UserError('RunState._agentToolInvocation must be undefined or { toolName, toolCallId?, toolArguments? }.');
    }
    this.#record.agentToolInvocation = invocation;
  }

  /**
   * The run's saved trace (null when there is none), in the reference's shape (`traceId`, `name`,
   * `groupId`, `metadata`, `tracingApiKey`): a resumed run continues it. Setting it (a trace object,
   * or null) chooses the trace the state is kept with.
   */
  get _trace(): StateTrace | null {
    const trace = this.#record.trace;
    if (!trace) return null;
    const view: StateTrace = { type: 'trace', traceId: trace.id, name: trace.workflow_name, groupId: trace.group_id };
    if (trace.metadata !== undefined) view.metadata = trace.metadata;
    if (trace.tracing_api_key !== undefined) view.tracingApiKey = trace.tracing_api_key;
    return view;
  }

  set _trace(trace: { traceId: string; name?: string; groupId?: string | null; metadata?: Record<string, unknown>; tracingApiKey?: string } | null | undefined) {
    if (trace === null || trace === undefined) {
      delete this.#record.trace;
      return;
    }
    if (typeof trace !== 'object' || typeof trace.traceId !== 'string') throw new UserError('RunState._trace must be a trace (with a string `traceId`) or null.');
    const serialized: SerializedTrace = { object: 'trace', id: trace.traceId, workflow_name: trace.name ?? 'Agent workflow', group_id: trace.groupId ?? null };
    if (trace.metadata !== undefined) serialized.metadata = trace.metadata;
    if (trace.tracingApiKey !== undefined) serialized.tracing_api_key = trace.tracingApiKey;
    this.#record.trace = serialized;
  }

  /**
   * Forgets the trace kept with the state, so the resumed run starts its own trace (or joins the
   * ambient one) instead of continuing the one it was paused in.
   */
  clearTrace(): void {
    delete this.#record.trace;
  }

  /** How reasoning items' ids go back to the model (undefined: the default, kept). */
  get _reasoningItemIdPolicy(): ReasoningItemIdPolicy | undefined {
    return this.#record.reasoningItemIdPolicy;
  }

  /** How reasoning items' ids go back to the model on the next turns (kept with the state). */
  setReasoningItemIdPolicy(policy?: ReasoningItemIdPolicy): void {
    if (policy === undefined) {
      delete this.#record.reasoningItemIdPolicy;
      return;
    }
    if (policy !== 'preserve' && policy !== 'omit') throw new UserError(`RunState.setReasoningItemIdPolicy: expected 'preserve' or 'omit', got ${JSON.stringify(policy)}.`);
    this.#record.reasoningItemIdPolicy = policy;
  }

  /** Tool calls waiting for a decision (including those of nested agent-tool runs). */
  /** The tools client tool searches (`toolSearchTool({ execution: 'client', execute })`) loaded for `agent` in this run, in load order. */
  getToolSearchRuntimeTools(agent: Agent<any, any>): Tool<any>[] {
    return toolSearchRuntimeTools(this.#record, agent);
  }

  getInterruptions(): RunToolApprovalItem[] {
    const step = this.#record.currentStep;
    return step?.type === 'next_step_interruption' ? step.interruptions.map(detachedApprovalItem) : [];
  }

  /**
   * Approves a pending call (an item of `getInterruptions()`, or `{ toolName, callId }`). With
   * `alwaysApprove`, later calls of the tool are approved too. `decidedBy`, `reason` and `decidedAt`
   * are kept with the decision and serialized with the state.
   */
  approve(item: ApprovalSubject, options: ApproveOptions = {}): void {
    // A decision that could not be kept is refused first, whatever the state is waiting for.
    assertDecidable(item, options.alwaysApprove === true);
    this.#requirePending(item, 'approve');
    this.#record.context.approveTool(item, options);
  }

  /** Rejects a pending call; `message` is what the model receives instead of the tool's output. */
  reject(item: ApprovalSubject, options: RejectOptions = {}): void {
    assertDecidable(item, options.alwaysReject === true);
    this.#requirePending(item, 'reject');
    this.#record.context.rejectTool(item, options);
  }

  /**
   * Gives a pending call's approval request an expiry: resuming after it treats the call as
   * rejected (the model is told the request expired), unless it was approved before.
   */
  setApprovalExpiry(item: ApprovalSubject, expiresAt: Date | string | number): void {
    this.#requirePending(item, 'set an expiry for');
    this.#record.context.setApprovalExpiry(item, expiresAt);
  }

  /** Input staged with `addInput` for the next model call (a copy). */
  get pendingInput(): AgentInputItem[] {
    return structuredClone(this.#record.pendingInput);
  }

  /**
   * Stages input (a user message, or input items) for a paused run: when it resumes, the input
   * enters the history right before the next model call, after the outputs of the calls decided
   * now. Only a run paused for approval that will call the model again can take input.
   */
  addInput(input: string | AgentInputItem[]): void {
    const step = this.#record.currentStep;
    if (step?.type !== 'next_step_interruption' && step?.type !== 'next_step_run_again') {
      throw new UserError('RunState.addInput: this run is not paused, so there is no next model call to add input to.');
    }
    const { maxTurns, currentTurn } = this.#record;
    if (maxTurns !== null && currentTurn >= maxTurns) {
      throw new UserError(`RunState.addInput: the run has used all its turns (${maxTurns}); no model call is left to add input to.`);
    }
    if (step.type === 'next_step_interruption' && endsOnToolResult(this.#record.currentAgent, step.interruptions)) {
      throw new UserError(
        `RunState.addInput: agent "${this.#record.currentAgent.name}" may end the run on a tool result (toolUseBehavior), so the added input might never reach the model.`,
      );
    }
    validateRunInput(input);
    this.#record.pendingInput.push(...structuredClone(inputToItems(input)));
  }

  /** Drops the input staged with `addInput`. */
  clearPendingInput(): void {
    this.#record.pendingInput = [];
  }

  hasPendingAgentToolRun(toolName: string, callId: string): boolean {
    return this.#record.pendingAgentToolRuns.has(pendingRunKey(toolName, callId));
  }

  /** Keeps the serialized state of a paused nested agent-tool run (what `asTool` does when its run pauses). */
  setPendingAgentToolRun(toolName: string, callId: string, serializedState: string): void {
    if (typeof serializedState !== 'string') throw new UserError('RunState.setPendingAgentToolRun: the nested state must be its serialized string.');
    this.#record.pendingAgentToolRuns.set(pendingRunKey(toolName, callId), serializedState);
  }

  /** Drops a paused nested agent-tool run (it resumed, or its call was decided otherwise). */
  clearPendingAgentToolRun(toolName: string, callId: string): void {
    this.#record.pendingAgentToolRuns.delete(pendingRunKey(toolName, callId));
  }

  /** The serialized state of a paused nested agent-tool run. */
  getPendingAgentToolRun(toolName: string, callId: string): string | undefined {
    return this.#record.pendingAgentToolRuns.get(pendingRunKey(toolName, callId));
  }

  /**
   * The serialized form (schema version `$schemaVersion`): agents by reference (with a stable
   * identity when names are shared), nested paused agent-tool runs as their own serialized states.
   * The run's trace is kept (a resumed run continues it), without its tracing API key unless
   * `includeTracingApiKey` is set.
   */
  toJSON(options: { includeTracingApiKey?: boolean } = {}): SerializedRunState {
    return writeRunState(this.#record, options);
  }

  toString(options: { includeTracingApiKey?: boolean } = {}): string {
    return serializeRunState(this.#record, options);
  }

  /**
   * Rebuilds a state from `toString()` output, against the agent graph rooted at `rootAgent` (the
   * agent the run started with, rebuilt by this process). States written by an older schema version
   * are migrated; a newer one, invalid input or an agent reference the graph does not contain is a
   * `RunStateError` naming what is wrong. `agentRenames` maps old agent identities to new ones.
   */
  static async fromString<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>>(
    rootAgent: TAgent,
    str: string,
    options: { agentRenames?: Readonly<Record<string, string>> } = {},
  ): Promise<RunState<TContext, TAgent>> {
    requireRootAgent(rootAgent, 'RunState.fromString');
    const { state, writtenVersion } = readRunStateJson(str);
    requireUniqueNamesForLegacyState(rootAgent, writtenVersion);
    const record = restoreRunState(rootAgent, state, withRenames({}, options.agentRenames));
    await rehydrateToolSearchRuntimeTools(record);
    return wrapRecord(record) as RunState<TContext, TAgent>;
  }

  /**
   * Like `fromString`, running with `context`: `'merge'` (default) keeps it and adds the serialized
   * approvals it has no decision for; `'replace'` uses it as it is. The serialized application
   * context and usage are not restored onto a given context.
   */
  static async fromStringWithContext<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>>(
    rootAgent: TAgent,
    str: string,
    context: RunContext<TContext>,
    options: { contextStrategy?: ContextStrategy; agentRenames?: Readonly<Record<string, string>> } = {},
  ): Promise<RunState<TContext, TAgent>> {
    requireRootAgent(rootAgent, 'RunState.fromStringWithContext');
    if (!(context instanceof RunContext)) throw new UserError('RunState.fromStringWithContext: `context` must be a RunContext.');
    const strategy = options.contextStrategy ?? 'merge';
    if (strategy !== 'merge' && strategy !== 'replace') {
      throw new UserError(`RunState.fromStringWithContext: \`contextStrategy\` must be 'merge' or 'replace', got ${JSON.stringify(strategy)}.`);
    }
    const { state, writtenVersion } = readRunStateJson(str);
    requireUniqueNamesForLegacyState(rootAgent, writtenVersion);
    const record = restoreRunState(rootAgent, state, withRenames({ context, contextStrategy: strategy }, options.agentRenames));
    await rehydrateToolSearchRuntimeTools(record);
    return wrapRecord(record) as RunState<TContext, TAgent>;
  }

  #requirePending(item: ApprovalSubject, action: string): void {
    if (typeof item !== 'object' || item === null) throw new UserError(`RunState: cannot ${action} ${String(item)}; pass an item of getInterruptions() or { toolName, callId }.`);
    const target = approvalTargetOf(item);
    const step = this.#record.currentStep;
    const pending = step?.type === 'next_step_interruption' ? step.interruptions : [];
    if (pending.some((p) => p.toolName === target.toolName && p.callId === target.callId)) return;
    const list = pending.map((p) => `${p.toolName} (call ${p.callId})`).join(', ') || 'none';
    throw new RunStateError(
      'approval_not_pending',
      `Cannot ${action} tool "${target.toolName}" call ${target.callId}: it is not waiting for approval in this run state. Pending approvals: ${list}.`,
    );
  }
}

/** A run state's trace, as the reference's \`RunState._trace\` shows it. */
export interface StateTrace {
  type: 'trace';
  traceId: string;
  name: string;
  groupId: string | null;
  metadata?: Record<string, unknown>;
  tracingApiKey?: string;
}

/** A turn's decision as the reference writes it on \`RunState._currentStep\`. */
export type ReferenceNextStep =
  | { type: 'next_step_run_again' }
  | { type: 'next_step_handoff'; newAgent?: unknown }
  | { type: 'next_step_final_output'; output: unknown }
  | { type: 'next_step_interruption'; data: { interruptions: RunToolApprovalItem[] } };

function nextStepOf(step: ReferenceNextStep | undefined): NextStep | undefined {
  if (step === undefined) return undefined;
  switch (step?.type) {
    case 'next_step_run_again':
    case 'next_step_handoff':
      return { type: step.type };
    case 'next_step_final_output':
      return { type: step.type, output: step.output };
    case 'next_step_interruption': {
      const interruptions = (step.data as { interruptions?: unknown } | undefined)?.interruptions ?? (step as { interruptions?: unknown }).interruptions;
      return { type: step.type, interruptions: listOf(interruptions as RunToolApprovalItem[], '_currentStep.data.interruptions') };
    }
    default:
      throw new UserError(`RunState._currentStep: unknown step type ${JSON.stringify((step as { type?: unknown })?.type)}.`);
  }
}

function listOf<T>(value: T[], field: string): T[] {
  if (!Array.isArray(value)) throw new UserError(`RunState.${field} must be an array.`);
  return value;
}

function requireRootAgent(agent: unknown, label: string): void {
  if (typeof agent !== 'object' || agent === null || typeof (agent as { name?: unknown }).name !== 'string' || !Array.isArray((agent as { tools?: unknown }).tools)) {
    throw new UserError(`${label}: the first argument must be the run's starting Agent.`);
  }
}

function withRenames(options: RestoreOptions, renames: unknown): RestoreOptions {
  if (renames === undefined) return options;
  if (typeof renames !== 'object' || renames === null || Array.isArray(renames) || Object.values(renames).some((v) => typeof v !== 'string')) {
    throw new UserError('`agentRenames` must be an object mapping old agent names (or identities) to new ones.');
  }
  return { ...options, agentRenames: renames as Record<string, string> };
}

/** The record behind a state (core-internal). */
export function recordOf<TContext>(state: RunState<TContext, any>): RunRecord<TContext> {
  return readRecord(state) as RunRecord<TContext>;
}

/** The result of a pending call may end the run before the model is called again. */
function endsOnToolResult(agent: Agent<any, any>, pending: readonly RunToolApprovalItem[]): boolean {
  const behavior = agent.toolUseBehavior;
  if (behavior === 'stop_on_first_tool' || typeof behavior === 'function') return true;
  if (typeof behavior !== 'object' || behavior === null) return false;
  const stopAt = new Set(behavior.stopAtToolNames);
  return pending.some((item) => stopAt.has(item.toolName) || stopAt.has(item.name));
}
