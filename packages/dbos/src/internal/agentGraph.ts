import type { Agent } from '@baton/core';
import type { Json } from './workflowTypes.js';

/** What a run relies on in the agent graph: each reachable agent by name, with its tool and handoff names. */
export type AgentGraph = Record<string, { readonly tools: string[]; readonly handoffs: string[] }>;

export function agentGraphOf(root: Agent<any, any>): AgentGraph {
  const graph: AgentGraph = {};
  const visit = (agent: Agent<any, any>) => {
    if (Object.hasOwn(graph, agent.name)) return;
    const targets = agent.handoffs.map((handoff) => ('agent' in handoff && handoff.agent ? (handoff.agent as Agent<any, any>) : (handoff as Agent<any, any>)));
    const handoffNames = agent.handoffs.map((handoff) => ('toolName' in handoff && typeof handoff.toolName === 'string' ? handoff.toolName : (handoff as Agent<any, any>).name));
    graph[agent.name] = { tools: agent.tools.map((tool) => tool.name).sort(), handoffs: handoffNames.sort() };
    for (const target of targets) visit(target);
  };
  visit(root);
  return graph;
}

export interface GraphIssue {
  readonly kind: 'unresolved_agent' | 'missing_tool' | 'missing_handoff';
  readonly agent: string;
  readonly name?: string;
  readonly message: string;
}

/**
 * What the run's recorded graph had that this one lacks (an agent, a tool, a handoff removed or
 * renamed). Additions are no issue: the recorded steps never used them.
 */
export function graphIssues(recorded: AgentGraph, current: AgentGraph): GraphIssue[] {
  const issues: GraphIssue[] = [];
  for (const [name, before] of Object.entries(recorded)) {
    const now = Object.hasOwn(current, name) ? current[name] : undefined;
    if (!now) {
      issues.push({ kind: 'unresolved_agent', agent: name, message: `Agent "${name}" is not in this worker's agent graph.` });
      continue;
    }
    for (const tool of before.tools) {
      if (!now.tools.includes(tool)) issues.push({ kind: 'missing_tool', agent: name, name: tool, message: `Agent "${name}" has no tool "${tool}" any more.` });
    }
    for (const handoff of before.handoffs) {
      if (!now.handoffs.includes(handoff)) issues.push({ kind: 'missing_handoff', agent: name, name: handoff, message: `Agent "${name}" has no handoff "${handoff}" any more.` });
    }
  }
  return issues;
}

/** A report of the shape `checkResumable` gives (`ok`, `issues` with a `message` each). */
export function graphReport(issues: readonly GraphIssue[]): Json {
  return { ok: issues.length === 0, issues: issues.map((issue) => ({ ...issue })) } as unknown as Json;
}
