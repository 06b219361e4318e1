import { buildAgentIdentityMap } from '@baton/core/internal';
import { RunContext, RunState, type Agent, type ContextStrategy } from '@baton/core';

/** An agent of a graph with the identity serialized states use for it. */
export interface AgentIdentity {
  /** The agent's name when it is unique in the graph; `Name`, `Name#2`, ... when several share it. */
  identity: string;
  name: string;
  agent: Agent<any, any>;
}

/**
 * The identities of every agent reachable from `rootAgent` (through handoffs and `agent.asTool()`),
 * in walk order: root first, then breadth first, handoffs before agent tools, each in declaration
 * order. Agents sharing a name are `Name`, `Name#2`, ... in that order, so rebuilding the same graph
 * gives the same identities; a generated suffix skips a name a real agent already has.
 */
export function agentIdentities(rootAgent: Agent<any, any>): AgentIdentity[] {
  const map = buildAgentIdentityMap(rootAgent);
  return map.agents.map((agent) => ({ identity: map.byAgent.get(agent)!, name: agent.name, agent }));
}

export interface LoadRunStateOptions<TContext> {
  /** Old agent identity (or name) → new identity, for agents renamed since the state was written. */
  renames?: Readonly<Record<string, string>>;
  /** Run with this context instead of one rebuilt from the state (see `contextStrategy`). */
  context?: RunContext<TContext>;
  /** With `context`: `'merge'` (default) adds the serialized approvals; `'replace'` uses it as it is. */
  contextStrategy?: ContextStrategy;
}

/**
 * `RunState.fromString` / `fromStringWithContext` with a rename map: a state written when an agent
 * was called `X` resumes on the agent now called `Y` with `{ renames: { X: 'Y' } }`. Serializing the
 * loaded state writes the new names, so the map is needed only once.
 */
export async function loadRunState<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>>(
  rootAgent: TAgent,
  str: string,
  options: LoadRunStateOptions<TContext> = {},
): Promise<RunState<TContext, TAgent>> {
  const renames = options.renames ? { agentRenames: options.renames } : {};
  if (options.context) {
    return RunState.fromStringWithContext<TContext, TAgent>(rootAgent, str, options.context, { contextStrategy: options.contextStrategy ?? 'merge', ...renames });
  }
  return RunState.fromString<TContext, TAgent>(rootAgent, str, renames);
}
