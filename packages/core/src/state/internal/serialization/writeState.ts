import { CURRENT_RUN_STATE_SCHEMA_VERSION, MAX_RUN_STATE_DEPTH, checkRunStateStructure } from '@baton/types/internal';
import { RunStateError, type ModelResponse, type RunItem, type RunToolApprovalItem, type SerializedAgentRef, type SerializedRunItem, type SerializedRunState, type SerializedToolApprovalItem, type UsageData, type RequestUsageData } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { RunRecord } from '../runRecord.js';
import type { SerializedTrace } from '../../../definitions/runTracing.js';
import { buildAgentIdentityMap } from './identity.js';
import { parametersFingerprint } from './fingerprint.js';
import { writeSessionUnsaved } from './sessionUnsaved.js';
import { unsavedForSession } from '../sessionProgress.js';

type AgentRefOf = (agent: unknown) => SerializedAgentRef;
type ItemAgentRefOf = (agent: unknown) => SerializedAgentRef | undefined;

/**
 * Maps a run's record to the serialized format, in one pass over its history: agents become
 * references (with a stable identity when names are shared), classes become plain data, and nested
 * paused agent-tool runs become their own serialized strings. Objects are shared, not copied.
 */
export function writeRunState(record: RunRecord, options: { includeTracingApiKey?: boolean } = {}): SerializedRunState {
  const identities = buildAgentIdentityMap(record.rootAgent);
  const refs = new Map<unknown, SerializedAgentRef>();
  const current = record.currentAgent;
  const refOf: AgentRefOf = (agent) => {
    let ref = refs.get(agent);
    if (!ref) {
      const name = (agent as { name: string }).name;
      const identity = identities.byAgent.get(agent as Agent<any, any>);
      ref = identity === undefined || identity === name ? { name } : { name, identity };
      refs.set(agent, ref);
    }
    return ref;
  };

  // Items of the current agent leave `agent` out (the reader fills it in).
  const itemRefOf: ItemAgentRefOf = (agent) => (agent === current ? undefined : refOf(agent));
  const generatedItems: SerializedRunItem[] = new Array(record.generatedItems.length);
  for (let i = 0; i < record.generatedItems.length; i++) generatedItems[i] = writeItem(record.generatedItems[i]!, itemRefOf, refOf);

  const modelResponses: SerializedRunState['modelResponses'] = new Array(record.modelResponses.length);
  for (let i = 0; i < record.modelResponses.length; i++) modelResponses[i] = writeResponse(record.modelResponses[i]!);

  const context = record.context.toJSON();
  // Decisions on remote MCP servers' requests, by server and remote tool (not in `approvals`).
  const hosted = record.context.getHostedMcpApprovals();
  const hostedMcpApprovals = Object.keys(hosted).length > 0 ? hosted : undefined;
  // A paused turn held back from the session (by this run, or as a state read back and not resumed
  // since: a run given a session takes `sessionUnsaved` over): the resumed run writes it.
  // Only a held turn is written as unsaved: an answer its output guardrails blocked is not resumed
  // from JSON (the model is asked again: README), so the session never gets it.
  const unsaved = (record.session?.held === true ? unsavedForSession(record.session, record.generatedItems) : undefined) ?? record.sessionUnsaved;
  const json: SerializedRunState = {
    $schemaVersion: CURRENT_RUN_STATE_SCHEMA_VERSION,
    ...(record.runId !== undefined ? { runId: record.runId } : {}),
    currentTurn: record.currentTurn,
    ...(record.turnInProgress === true ? { currentTurnInProgress: true } : {}),
    maxTurns: record.maxTurns,
    currentAgent: refOf(record.currentAgent),
    originalInput: record.originalInput as SerializedRunState['originalInput'],
    generatedItems,
    modelResponses,
    context: {
      context: context.context,
      usage: writeUsage(context.usage),
      approvals: record.context.getApprovals(),
      ...(hostedMcpApprovals ? { hostedMcpApprovals } : {}),
      ...(context.approvalRequests ? { approvalRequests: context.approvalRequests } : {}),
      // The agent-tool input a nested run's context carries (the reference writes it too).
      ...(context.toolInput !== undefined ? { toolInput: context.toolInput } : {}),
    },
    inputGuardrailResults: record.inputGuardrailResults,
    outputGuardrailResults: record.outputGuardrailResults.map((result) => ({
      guardrail: result.guardrail,
      agentOutput: result.agentOutput,
      agent: refOf(result.agent),
      output: result.output,
    })),
    toolInputGuardrailResults: record.toolInputGuardrailResults,
    toolOutputGuardrailResults: record.toolOutputGuardrailResults,
    pendingAgentToolRuns: writePendingRuns(record.pendingAgentToolRuns),
    ...(record.pendingInput.length > 0 ? { pendingInput: record.pendingInput as never } : {}),
    ...(record.reasoningItemIdPolicy ? { reasoningItemIdPolicy: record.reasoningItemIdPolicy } : {}),
    ...(unsaved !== undefined ? { sessionUnsaved: writeSessionUnsaved(unsaved, record.generatedItems) } : {}),
    ...(record.trace ? { trace: writeTrace(record.trace, options.includeTracingApiKey === true) } : {}),
  };
  const step = record.currentStep;
  // An answer whose output check has not passed is not stored: the resumed run asks the model again.
  if (step && !(step.type === 'next_step_final_output' && step.unchecked)) {
    json.currentStep =
      step.type === 'next_step_interruption'
        ? { type: step.type, interruptions: step.interruptions.map((item) => writeApprovalItem(item, itemRefOf)) }
        : step.type === 'next_step_final_output'
          ? { type: step.type, output: typeof step.output === 'string' ? step.output : (JSON.stringify(step.output) ?? '') }
          : { type: step.type };
  }
  return json;
}

/** The key leaves with the state only when the caller asks for it (as the reference's `includeTracingApiKey`). */
function writeTrace(trace: SerializedTrace, includeApiKey: boolean): SerializedTrace {
  if (trace.tracing_api_key === undefined || includeApiKey) return trace;
  const { tracing_api_key: _key, ...withoutKey } = trace;
  return withoutKey;
}

function writeItem(item: RunItem, itemRefOf: ItemAgentRefOf, refOf: AgentRefOf): SerializedRunItem {
  switch (item.type) {
    case 'tool_call_output_item': {
      const out = withAgent({ type: item.type, rawItem: item.rawItem as never }, itemRefOf(item.agent)) as SerializedRunItem;
      const output = item.output;
      // A string output is the text already in rawItem.output: leave it out.
      if (typeof output !== 'string' || output !== textOf(item.rawItem.output)) (out as { output?: unknown }).output = jsonSafe(output);
      if (item.customData !== undefined) (out as { customData?: unknown }).customData = item.customData;
      return out;
    }
    case 'handoff_output_item':
      return { type: item.type, rawItem: item.rawItem as never, sourceAgent: refOf(item.sourceAgent), targetAgent: refOf(item.targetAgent) };
    case 'tool_approval_item':
      return writeApprovalItem(item, itemRefOf);
    case 'input_item':
      return withAgent({ type: item.type, rawItem: item.rawItem as never, inputId: item.inputId }, itemRefOf(item.agent));
    default:
      return withAgent({ type: item.type, rawItem: item.rawItem }, itemRefOf(item.agent)) as SerializedRunItem;
  }
}

function withAgent<T extends object>(item: T, agent: SerializedAgentRef | undefined): T & { agent?: SerializedAgentRef } {
  return agent === undefined ? item : { ...item, agent };
}

function writeApprovalItem(item: RunToolApprovalItem, itemRefOf: ItemAgentRefOf): SerializedToolApprovalItem {
  const out: SerializedToolApprovalItem = withAgent({ type: 'tool_approval_item' as const, rawItem: item.rawItem as never, toolName: item.toolName }, itemRefOf(item.agent));
  const tools = (item.agent as { tools?: Array<{ name: string; parameters?: unknown }> }).tools;
  const tool = Array.isArray(tools) ? tools.find((t) => t.name === item.toolName) : undefined;
  if (tool) out.parametersFingerprint = parametersFingerprint(tool);
  return out;
}

function writeResponse(response: ModelResponse): SerializedRunState['modelResponses'][number] {
  const out: SerializedRunState['modelResponses'][number] = {
    usage: writeUsage(response.usage),
    output: response.output as SerializedRunState['modelResponses'][number]['output'],
  };
  if (response.responseId !== undefined) out.responseId = response.responseId;
  if (response.requestId !== undefined) out.requestId = response.requestId;
  if (response.providerData !== undefined) out.providerData = response.providerData;
  return out;
}

/** Usage with the per-request detail lists only when they hold something. */
function writeUsage(usage: UsageData): SerializedRunState['context']['usage'] {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  const out: SerializedRunState['context']['usage'] = {
    requests: usage.requests ?? 1,
    inputTokens,
    outputTokens,
    totalTokens: usage.totalTokens ?? inputTokens + outputTokens,
  };
  const inputDetails = detailList(usage.inputTokensDetails);
  const outputDetails = detailList(usage.outputTokensDetails);
  if (inputDetails.length > 0) out.inputTokensDetails = inputDetails;
  if (outputDetails.length > 0) out.outputTokensDetails = outputDetails;
  const entries = usage.requestUsageEntries;
  if (entries && entries.length > 0) out.requestUsageEntries = entries.map(writeRequestUsage);
  return out;
}

/** A request's counts as plain data (a `RequestUsage` or its data). */
function writeRequestUsage(entry: RequestUsageData): NonNullable<SerializedRunState['context']['usage']['requestUsageEntries']>[number] {
  const inputTokens = entry.inputTokens ?? 0;
  const outputTokens = entry.outputTokens ?? 0;
  const out: NonNullable<SerializedRunState['context']['usage']['requestUsageEntries']>[number] = {
    inputTokens,
    outputTokens,
    totalTokens: entry.totalTokens ?? inputTokens + outputTokens,
  };
  if (entry.inputTokensDetails && Object.keys(entry.inputTokensDetails).length > 0) out.inputTokensDetails = { ...entry.inputTokensDetails };
  if (entry.outputTokensDetails && Object.keys(entry.outputTokensDetails).length > 0) out.outputTokensDetails = { ...entry.outputTokensDetails };
  if (entry.endpoint !== undefined) out.endpoint = entry.endpoint;
  return out;
}

function detailList(value: UsageData['inputTokensDetails']): Array<Record<string, number>> {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function writePendingRuns(runs: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, nested] of runs) {
    Object.defineProperty(out, key, { value: nested, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function textOf(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  if (typeof output === 'object' && output !== null && (output as { type?: unknown }).type === 'text') return (output as { text?: string }).text;
  return undefined;
}

/**
 * The raw output when JSON can carry it and a reader will accept it, else its text (so serializing
 * a state never throws, and never writes what `RunState.fromString` refuses): a tool's value nested
 * deeper than the state's depth allows (with room for where it sits) is kept as its JSON text, as
 * the model received it.
 */
function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value !== 'object' || value === null) return typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol' ? String(value) : value;
  try {
    const text = JSON.stringify(value);
    return nestsDeeperThan(value, TOOL_OUTPUT_DEPTH) ? text : value;
  } catch {
    return String(value);
  }
}

/** An item's output sits a few levels into the state (`$.generatedItems[i].output`); the rest of the limit is the output's. */
const TOOL_OUTPUT_DEPTH = MAX_RUN_STATE_DEPTH - 8;

function nestsDeeperThan(root: object, limit: number): boolean {
  const stack: Array<{ value: object; depth: number }> = [{ value: root, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * `writeRunState` as text. What the reader would refuse (a context nested deeper than
 * `MAX_RUN_STATE_DEPTH`, a `__proto__` key) is a `RunStateError` now, naming where, rather than a
 * paused run that can never be read back; so is a context too deep for `JSON.stringify` itself.
 */
export function serializeRunState(record: RunRecord, options: { includeTracingApiKey?: boolean } = {}): string {
  try {
    const json = writeRunState(record, options);
    try {
      checkRunStateStructure(json);
    } catch (refused) {
      if (!(refused instanceof RunStateError)) throw refused;
      throw new RunStateError(refused.reason, `RunState.toString: the state could not be read back, so it is not written: ${refused.message}`, {
        ...(refused.path !== undefined ? { path: refused.path } : {}),
        cause: refused,
      });
    }
    return JSON.stringify(json);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new RunStateError('too_deep', `RunState.toString: the state cannot be serialized (${error.message}); is the run context nested too deeply?`, { cause: error });
    }
    throw error;
  }
}
