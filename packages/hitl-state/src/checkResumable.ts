import { agentToolSourceAgent, buildAgentIdentityMap, parametersFingerprint } from '@baton/core/internal';
import { formatJsonPath, readRunStateJson, serializedItemAgent } from '@baton/types/internal';
import { RunState, defaultHandoffToolName, type Agent } from '@baton/core';
import { RunStateError, toolCallIdOf, type FunctionCallItem, type FunctionTool, type HostedToolCallItem, type SerializedAgentRef, type SerializedRunState } from '@baton/types';
import { readState, splitNestedRunKey } from './internal/read.js';

export type ResumabilityIssueKind =
  /** An agent reference the rebuilt graph does not contain. */
  | 'unresolved_agent'
  /** A pending call (waiting for approval, or approved and not yet run) names a tool its agent no longer has. */
  | 'missing_tool'
  /** A pending approval's tool has a different parameter schema than when the approval was requested. */
  | 'tool_schema_changed'
  /** A paused nested run belongs to an agent tool (`asTool()`) the graph no longer has. */
  | 'missing_agent_tool'
  /** A paused nested run that cannot be read. */
  | 'unreadable_nested_run'
  /** Anything else that would stop `RunState.fromString`. */
  | 'invalid_state';

export interface ResumabilityIssue {
  kind: ResumabilityIssueKind;
  /** JSON path of the offending reference or call in the serialized state. */
  path: string;
  message: string;
  agent?: SerializedAgentRef;
  toolName?: string;
  callId?: string;
}

export interface ResumabilityReport {
  /** True when nothing stands in the way of `RunState.fromString(rootAgent, str)` and resuming. */
  ok: boolean;
  schemaVersion: string;
  issues: ResumabilityIssue[];
}

export interface CheckResumableOptions {
  /** Old agent identity (or name) → new one, as for `RunState.fromString(..., { agentRenames })`. */
  renames?: Readonly<Record<string, string>>;
}

type Path = Array<string | number>;

/**
 * Checks, without resuming anything, whether a serialized state can be resumed against the agent
 * graph rooted at `rootAgent`: it reports every agent reference that does not resolve, every pending
 * tool that no longer exists or whose parameter schema changed, and every paused nested agent-tool
 * run whose tool is gone. Throws `RunStateError` only when `str` is not a readable run state at all.
 */
export async function checkResumable(rootAgent: Agent<any, any>, str: string, options: CheckResumableOptions = {}): Promise<ResumabilityReport> {
  const { state, writtenVersion } = readWithVersion(str);
  const issues: ResumabilityIssue[] = [];
  checkState(rootAgent, state, options.renames ?? {}, [], issues);
  if (issues.length === 0) {
    try {
      await RunState.fromString(rootAgent, str, options.renames ? { agentRenames: options.renames } : {});
    } catch (error) {
      if (!(error instanceof RunStateError)) throw error;
      issues.push({ kind: 'invalid_state', path: formatJsonPath(error.path ?? []), message: error.message });
    }
  }
  return { ok: issues.length === 0, schemaVersion: writtenVersion, issues };
}

function readWithVersion(str: string): { state: SerializedRunState; writtenVersion: string } {
  return readRunStateJson(str);
}

function checkState(root: Agent<any, any>, state: SerializedRunState, renames: Readonly<Record<string, string>>, at: Path, issues: ResumabilityIssue[]): void {
  const identities = buildAgentIdentityMap(root);
  let current: Agent<any, any> | undefined;
  const resolve = (ref: SerializedAgentRef | undefined, path: Path): Agent<any, any> | undefined => {
    if (ref === undefined) return current; // items of the current agent carry no reference
    const written = ref.identity ?? ref.name;
    const key = Object.hasOwn(renames, written) ? renames[written]! : written;
    const agent = identities.byIdentity.get(key);
    if (!agent) {
      const renamed = key !== written ? ` (renamed to "${key}")` : '';
      issues.push({
        kind: 'unresolved_agent',
        path: formatJsonPath([...at, ...path]),
        agent: ref,
        message: `Agent "${written}"${renamed} is not in the agent graph of "${root.name}".`,
      });
    }
    return agent;
  };

  current = resolve(state.currentAgent, ['currentAgent']);
  state.generatedItems.forEach((item, i) => {
    if (item.type === 'handoff_output_item') {
      resolve(item.sourceAgent, ['generatedItems', i, 'sourceAgent']);
      resolve(item.targetAgent, ['generatedItems', i, 'targetAgent']);
    } else {
      resolve(item.agent, ['generatedItems', i, 'agent']);
    }
  });
  state.outputGuardrailResults.forEach((result, i) => resolve(result.agent, ['outputGuardrailResults', i, 'agent']));

  const interruptions = state.currentStep?.type === 'next_step_interruption' ? state.currentStep.interruptions : [];
  const pendingApproval = new Set<string>();
  interruptions.forEach((item, i) => {
    const path: Path = ['currentStep', 'interruptions', i];
    const callId = toolCallIdOf(item.rawItem as FunctionCallItem | HostedToolCallItem);
    pendingApproval.add(callId);
    const agent = resolve(item.agent, [...path, 'agent']);
    // A hosted MCP server's approval request names a tool of the remote server, not one of the agent's.
    if (!agent || item.rawItem.type === 'hosted_tool_call') return;
    const tool = agent.tools.find((t): t is FunctionTool<any> => t.type === 'function' && t.name === item.toolName);
    const base = { agent: serializedItemAgent(item, state), toolName: item.toolName, callId, path: formatJsonPath([...at, ...path]) };
    if (!tool) {
      issues.push({ ...base, kind: 'missing_tool', message: `Agent "${agent.name}" has no tool "${item.toolName}" for the pending call ${callId}.` });
    } else if (item.parametersFingerprint !== undefined && item.parametersFingerprint !== parametersFingerprint(tool)) {
      issues.push({
        ...base,
        kind: 'tool_schema_changed',
        message: `The parameters of tool "${item.toolName}" of agent "${agent.name}" changed since call ${item.rawItem.callId} was sent for approval.`,
      });
    }
  });

  // Calls of the interrupted response that have no output yet run when the state is resumed.
  if (interruptions.length > 0 && current) {
    const answered = new Set<string>();
    for (const item of state.generatedItems) if (item.type === 'tool_call_output_item') answered.add(item.rawItem.callId);
    const response = state.modelResponses.at(-1);
    const handoffNames = new Set(current.handoffs.map((h) => ((h as { toolName?: unknown }).toolName as string | undefined) ?? defaultHandoffToolName(h as Agent<any, any>)));
    response?.output.forEach((output, i) => {
      if (output.type !== 'function_call') return;
      const call = output as unknown as { name: string; callId: string };
      // Pending approvals were checked above; answered calls and handoffs do not run a tool.
      if (answered.has(call.callId) || pendingApproval.has(call.callId) || handoffNames.has(call.name)) return;
      if (current.tools.some((t) => t.name === call.name)) return;
      issues.push({
        kind: 'missing_tool',
        path: formatJsonPath([...at, 'modelResponses', state.modelResponses.length - 1, 'output', i]),
        agent: state.currentAgent,
        toolName: call.name,
        callId: call.callId,
        message: `Agent "${current.name}" has no tool "${call.name}" for call ${call.callId}, which runs when the state is resumed.`,
      });
    });
  }

  for (const key of Object.keys(state.pendingAgentToolRuns)) {
    const path: Path = [...at, 'pendingAgentToolRuns', key];
    const { toolName, callId } = splitNestedRunKey(key);
    const owners = current ? [current, ...identities.agents] : identities.agents;
    const tool = owners.flatMap((agent) => agent.tools).find((t) => t.name === toolName && agentToolSourceAgent(t));
    const source = tool ? agentToolSourceAgent(tool) : undefined;
    if (!source) {
      issues.push({ kind: 'missing_agent_tool', path: formatJsonPath(path), toolName, callId, message: `No agent tool "${toolName}" (agent.asTool()) for the paused nested run of call ${callId}.` });
      continue;
    }
    let nested: SerializedRunState;
    try {
      nested = readState(state.pendingAgentToolRuns[key]!);
    } catch (error) {
      issues.push({ kind: 'unreadable_nested_run', path: formatJsonPath(path), toolName, callId, message: error instanceof Error ? error.message : String(error) });
      continue;
    }
    checkState(source, nested, renames, path, issues);
  }
}
