import { formatJsonPath, readRunStateJson } from '@baton/types/internal';
import { RunHandoffCallItem, RunHandoffOutputItem, RunInputItem, RunMessageOutputItem, RunReasoningItem, RunCompactionItem, RunToolSearchCallItem, RunToolSearchOutputItem, RunStateError, RunToolApprovalItem, RunToolCallItem, RunToolCallOutputItem, Usage, type ModelResponse, type RunItem, type SerializedAgentRef, type SerializedRunItem, type SerializedRunState, type SerializedToolApprovalItem, type UsageData } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { RunContext } from '../../../definitions/runContext.js';
import { agentToolSourceAgent } from '../../../definitions/internal/agentToolSources.js';
import { newRunRecord, type NextStep, type RunRecord } from '../runRecord.js';
import { serializeRunState } from './writeState.js';
import { buildAgentIdentityMap, type AgentIdentityMap } from './identity.js';
import { readSessionUnsaved } from './sessionUnsaved.js';

export type ContextStrategy = 'merge' | 'replace';

export interface RestoreOptions {
  /** A context to run with instead of a new one built from the serialized state. */
  context?: RunContext<any>;
  /** With `context`: `'merge'` (default) adds the serialized approvals to it; `'replace'` uses it as it is. */
  contextStrategy?: ContextStrategy;
  /** Old agent identity (or name) → new one, for agents renamed since the state was written. */
  agentRenames?: Readonly<Record<string, string>>;
}

type Path = Array<string | number>;

/**
 * Rebuilds a run state from its (current-version) serialized form against the agent graph rooted at
 * `root`: every agent reference resolves to an agent of that graph, and every paused nested agent-tool
 * run is rebuilt against the agent behind its tool, sharing this run's context. Throws
 * `RunStateError` naming the path of the first reference that does not resolve.
 */
export function restoreRunState(root: Agent<any, any>, json: SerializedRunState, options: RestoreOptions = {}, at: Path = []): RunRecord {
  const identities = buildAgentIdentityMap(root);
  const resolve = resolver(root, identities, options.agentRenames, at);

  const context = restoreContext(json, options);
  const currentAgent = resolve(json.currentAgent, ['currentAgent']);
  const approvalItems = new Map<string, RunToolApprovalItem>();
  const generatedItems: RunItem[] = new Array(json.generatedItems.length);
  for (let i = 0; i < json.generatedItems.length; i++) {
    const item = restoreItem(json.generatedItems[i]!, currentAgent, resolve, ['generatedItems', i]);
    if (item.type === 'tool_approval_item') approvalItems.set(`${item.toolName}:${item.callId}`, item);
    generatedItems[i] = item;
  }
  const modelResponses: ModelResponse[] = new Array(json.modelResponses.length);
  for (let i = 0; i < json.modelResponses.length; i++) {
    const { usage, ...rest } = json.modelResponses[i]!;
    modelResponses[i] = { ...(rest as Omit<ModelResponse, 'usage'>), usage: new Usage(usage as UsageData) };
  }

  const record = newRunRecord(context, json.originalInput as never, root, json.maxTurns);
  record.currentAgent = currentAgent;
  record.currentTurn = json.currentTurn;
  if (json.currentTurnInProgress === true) record.turnInProgress = true;
  if (json.runId !== undefined) record.runId = json.runId;
  record.generatedItems = generatedItems;
  record.modelResponses = modelResponses;
  record.currentStep = restoreStep(json, currentAgent, approvalItems, resolve, at);
  record.inputGuardrailResults = json.inputGuardrailResults as typeof record.inputGuardrailResults;
  record.outputGuardrailResults = json.outputGuardrailResults.map((result, i) => ({
    ...result,
    agent: resolve(result.agent, ['outputGuardrailResults', i, 'agent']),
  })) as typeof record.outputGuardrailResults;
  record.toolInputGuardrailResults = json.toolInputGuardrailResults as typeof record.toolInputGuardrailResults;
  record.toolOutputGuardrailResults = json.toolOutputGuardrailResults as typeof record.toolOutputGuardrailResults;
  if (json.reasoningItemIdPolicy) record.reasoningItemIdPolicy = json.reasoningItemIdPolicy;
  if (json.pendingInput) record.pendingInput = json.pendingInput as never;
  if (json.sessionUnsaved) record.sessionUnsaved = readSessionUnsaved(json.sessionUnsaved, record.generatedItems, at);
  if (json.trace) record.trace = json.trace;

  for (const key of Object.keys(json.pendingAgentToolRuns)) {
    const path = [...at, 'pendingAgentToolRuns', key];
    const nestedRoot = agentToolOwner(key, currentAgent, identities, path);
    let nestedJson: SerializedRunState;
    try {
      nestedJson = readRunStateJson(json.pendingAgentToolRuns[key]!).state;
    } catch (error) {
      throw nestedError(error, path);
    }
    // Read now so a broken nested state fails here, naming its path; kept as the nested run's own
    // snapshot (its context included), rewritten in the current schema with renames applied.
    const nested = restoreRunState(nestedRoot, nestedJson, options.agentRenames ? { agentRenames: options.agentRenames } : {}, path);
    record.pendingAgentToolRuns.set(key, serializeRunState(nested));
  }
  return record;
}

function restoreContext(json: SerializedRunState, options: RestoreOptions): RunContext<any> {
  const serialized = json.context;
  if (!options.context) {
    const context = new RunContext<any>(serialized.context, new Usage(serialized.usage as UsageData));
    context.setApprovals(serialized.approvals as never);
    context.setApprovalRequests(serialized.approvalRequests ?? {});
    context.setHostedMcpApprovals((serialized.hostedMcpApprovals ?? {}) as never);
    const toolInput = (serialized as { toolInput?: unknown }).toolInput;
    if (toolInput !== undefined) context.toolInput = toolInput;
    return context;
  }
  if ((options.contextStrategy ?? 'merge') === 'merge') {
    options.context.mergeApprovals(serialized.approvals as never, serialized.approvalRequests ?? {});
    options.context.mergeHostedMcpApprovals((serialized.hostedMcpApprovals ?? {}) as never);
    // A given context without a tool input takes the state's, as the reference merges it.
    const toolInput = (serialized as { toolInput?: unknown }).toolInput;
    if (toolInput !== undefined && options.context.toolInput === undefined) options.context.toolInput = toolInput;
  }
  return options.context;
}

type Resolve = (ref: SerializedAgentRef, path: Path) => Agent<any, any>;
type ResolveOptional = (ref: SerializedAgentRef | undefined, path: Path) => Agent<any, any>;

function resolver(root: Agent<any, any>, identities: AgentIdentityMap, renames: Readonly<Record<string, string>> | undefined, at: Path): Resolve {
  return (ref, path) => {
    const written = ref.identity ?? ref.name;
    const key = renames !== undefined && Object.hasOwn(renames, written) ? renames[written]! : written;
    const agent = identities.byIdentity.get(key);
    if (agent) return agent;
    const fullPath = [...at, ...path];
    const label = ref.identity !== undefined && ref.identity !== ref.name ? `Agent identity ${ref.identity}` : `Agent ${ref.name}`;
    const renamed = key !== written ? ` (renamed to ${key})` : '';
    const known = [...identities.byIdentity.keys()].map((id) => JSON.stringify(id)).join(', ');
    throw new RunStateError(
      'unresolved_agent',
      `${label}${renamed} not found in the agent graph of "${root.name}" (referenced at ${formatJsonPath(fullPath)}). ` +
        `Agents in the graph: ${known}. Rebuild the same graph, or pass a rename map for renamed agents.`,
      { path: fullPath },
    );
  };
}

function restoreItem(item: SerializedRunItem, current: Agent<any, any>, resolveRef: Resolve, path: Path): RunItem {
  // Items of the current agent are written without `agent`.
  const resolve: ResolveOptional = (ref, at) => (ref === undefined ? current : resolveRef(ref, at));
  switch (item.type) {
    case 'message_output_item':
      return new RunMessageOutputItem(item.rawItem as never, resolve(item.agent, [...path, 'agent']));
    case 'tool_call_item':
      return new RunToolCallItem(item.rawItem as never, resolve(item.agent, [...path, 'agent']));
    case 'tool_call_output_item': {
      const output = 'output' in item ? item.output : textOf(item.rawItem.output);
      return new RunToolCallOutputItem(item.rawItem as never, resolve(item.agent, [...path, 'agent']), output, item.customData);
    }
    case 'reasoning_item':
      return new RunReasoningItem(item.rawItem as never, resolve(item.agent, [...path, 'agent']));
    case 'tool_search_call_item':
      return new RunToolSearchCallItem(item.rawItem as never, resolve(item.agent, [...path, 'agent']));
    case 'tool_search_output_item':
      return new RunToolSearchOutputItem(item.rawItem as never, resolve(item.agent, [...path, 'agent']));
    case 'compaction_item':
      return new RunCompactionItem(item.rawItem as never, resolve(item.agent, [...path, 'agent']));
    case 'input_item':
      return new RunInputItem(item.rawItem as never, resolve(item.agent, [...path, 'agent']), item.inputId);
    case 'handoff_call_item':
      return new RunHandoffCallItem(item.rawItem as never, resolve(item.agent, [...path, 'agent']));
    case 'handoff_output_item':
      return new RunHandoffOutputItem(item.rawItem as never, resolve(item.sourceAgent, [...path, 'sourceAgent']), resolve(item.targetAgent, [...path, 'targetAgent']));
    case 'tool_approval_item':
      return restoreApprovalItem(item, current, resolveRef, path);
  }
}

function restoreApprovalItem(item: SerializedToolApprovalItem, current: Agent<any, any>, resolve: Resolve, path: Path): RunToolApprovalItem {
  const agent = item.agent === undefined ? current : resolve(item.agent, [...path, 'agent']);
  return new RunToolApprovalItem(item.rawItem as never, agent, item.toolName);
}

function restoreStep(
  json: SerializedRunState,
  currentAgent: Agent<any, any>,
  approvalItems: ReadonlyMap<string, RunToolApprovalItem>,
  resolve: Resolve,
  at: Path,
): NextStep | undefined {
  const step = json.currentStep;
  if (!step) return undefined;
  switch (step.type) {
    case 'next_step_interruption':
      return {
        type: step.type,
        // The same item objects as in the history, as in a live state.
        interruptions: step.interruptions.map(
          (item, i) =>
            approvalItems.get(`${item.toolName}:${item.rawItem.callId}`) ?? restoreApprovalItem(item, currentAgent, resolve, ['currentStep', 'interruptions', i]),
        ),
      };
    case 'next_step_final_output': {
      if (currentAgent.outputType === 'text') return { type: step.type, output: step.output };
      try {
        return { type: step.type, output: JSON.parse(step.output) };
      } catch (error) {
        const path = [...at, 'currentStep', 'output'];
        throw new RunStateError('invalid_state', `Invalid run state at ${formatJsonPath(path)}: the final output of "${currentAgent.name}" is not valid JSON.`, {
          path,
          cause: error,
        });
      }
    }
    default:
      return { type: step.type };
  }
}

/** The agent behind the agent tool a nested-run key (`<toolName>:<callId>`) names. */
function agentToolOwner(key: string, currentAgent: Agent<any, any>, identities: AgentIdentityMap, path: Path): Agent<any, any> {
  const colon = key.indexOf(':');
  const toolName = colon < 0 ? key : key.slice(0, colon);
  const candidates = [currentAgent, ...identities.agents];
  for (const agent of candidates) {
    for (const tool of agent.tools) {
      if (tool.name !== toolName) continue;
      const source = agentToolSourceAgent(tool);
      if (source) return source;
    }
  }
  throw new RunStateError(
    'unresolved_tool',
    `Agent tool ${toolName} not found: the paused nested run at ${formatJsonPath(path)} belongs to an agent tool (agent.asTool()) named "${toolName}" ` +
      `that no agent of the graph of "${currentAgent.name}" has.`,
    { path },
  );
}

function nestedError(error: unknown, path: Path): unknown {
  if (!(error instanceof RunStateError)) return error;
  const fullPath = [...path, ...(error.path ?? [])];
  return new RunStateError(error.reason, `In the paused nested run at ${formatJsonPath(path)}: ${error.message}`, {
    path: fullPath,
    ...(error.foundVersion !== undefined ? { foundVersion: error.foundVersion } : {}),
    ...(error.supportedVersion !== undefined ? { supportedVersion: error.supportedVersion } : {}),
    cause: error,
  });
}

function textOf(output: unknown): unknown {
  if (typeof output === 'string') return output;
  if (typeof output === 'object' && output !== null && (output as { type?: unknown }).type === 'text') return (output as { text?: unknown }).text;
  return output;
}
