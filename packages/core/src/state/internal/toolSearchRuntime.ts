import { RunToolSearchOutputItem, UserError, getClientToolSearchExecutor, type RunItem, type Tool, type ToolSearchCallItem } from '@baton/types';
import type { Agent } from '../../definitions/agent.js';
import {
  answerClientToolSearch,
  clientToolSearchToolOf,
  hasCustomParameters,
  missingExecutorMessage,
  toolSearchExecution,
  toolSearchMatchKey,
  toolSearchRoutingKey,
} from '../../definitions/internal/toolSearchLoading.js';
import type { RunRecord } from './runRecord.js';

/**
 * The tools a client tool search's executor loaded, per agent, for the rest of the run. They are
 * functions, so a serialized state keeps only the search's items: reading the state back asks the
 * executor again (`rehydrateToolSearchRuntimeTools`). A later answer to the same call replaces the
 * tools of the earlier one; a tool loaded again by another search moves to that search.
 */
interface AgentRuntimeTools {
  readonly byCall: Map<string, Tool<any>[]>;
  readonly owners: Map<string, { readonly tool: Tool<any>; readonly order: number }>;
  next: number;
}

const runtimeTools = new WeakMap<RunRecord, Map<Agent<any, any>, AgentRuntimeTools>>();

function agentEntry(record: RunRecord, agent: Agent<any, any>): AgentRuntimeTools {
  let byAgent = runtimeTools.get(record);
  if (!byAgent) runtimeTools.set(record, (byAgent = new Map()));
  let entry = byAgent.get(agent);
  if (!entry) byAgent.set(agent, (entry = { byCall: new Map(), owners: new Map(), next: 0 }));
  return entry;
}

/** Records the tools one search (`callKey`) loaded for `agent`. */
export function recordToolSearchRuntimeTools(record: RunRecord, agent: Agent<any, any>, callKey: string | undefined, tools: readonly Tool<any>[]): void {
  if (tools.length === 0 && (callKey === undefined || !runtimeTools.get(record)?.get(agent)?.byCall.has(callKey))) return;
  const entry = agentEntry(record, agent);
  if (callKey !== undefined) {
    for (const previous of entry.byCall.get(callKey) ?? []) {
      const key = toolSearchRoutingKey(previous);
      if (key !== undefined && entry.owners.get(key)?.tool === previous) entry.owners.delete(key);
    }
    entry.byCall.set(callKey, [...tools]);
  }
  for (const tool of tools) {
    const key = toolSearchRoutingKey(tool);
    if (key !== undefined) entry.owners.set(key, { tool, order: entry.next++ });
  }
}

/** The tools client tool searches loaded for `agent` so far, in the order they were loaded. */
export function toolSearchRuntimeTools(record: RunRecord, agent: Agent<any, any>): Tool<any>[] {
  const entry = runtimeTools.get(record)?.get(agent);
  if (!entry) return [];
  return [...entry.owners.values()].sort((a, b) => a.order - b.order).map((owner) => owner.tool);
}

/**
 * After a state is read back: asks each client tool search's executor again for the tools its
 * earlier answers loaded, so calls to them still resolve. An agent whose client search has custom
 * parameters but no executor cannot get them back: a `UserError`, before the run resumes. Built-in
 * searches need nothing: they load tools the agent already has.
 */
export async function rehydrateToolSearchRuntimeTools(record: RunRecord): Promise<void> {
  const calls = new Map<string, ToolSearchCallItem>();
  for (const item of record.generatedItems) {
    if (item.type === 'tool_search_call_item') {
      const key = toolSearchMatchKey(item.rawItem);
      if (key !== undefined) calls.set(key, item.rawItem);
    }
  }
  for (const item of record.generatedItems) {
    if (!isClientOutput(item)) continue;
    const agent = item.agent as Agent<any, any>;
    const searchTool = clientToolSearchToolOf(agent.tools);
    if (!searchTool || !getClientToolSearchExecutor(searchTool)) {
      if (searchTool && hasCustomParameters(searchTool)) throw new UserError(missingExecutorMessage(agent.name, searchTool.name));
      continue;
    }
    const key = toolSearchMatchKey(item.rawItem);
    const call = key === undefined ? undefined : calls.get(key);
    if (!call) continue;
    const tools = [...(await agent.getAllTools(record.context)), ...toolSearchRuntimeTools(record, agent)];
    const answer = await answerClientToolSearch({ agent, call, searchTool, tools, runContext: record.context });
    recordToolSearchRuntimeTools(record, agent, key, answer.runtimeTools);
  }
}

function isClientOutput(item: RunItem): item is RunToolSearchOutputItem {
  return item instanceof RunToolSearchOutputItem && toolSearchExecution(item.rawItem) === 'client';
}
