import type { Agent } from '../../../definitions/agent.js';
import { agentToolSourceAgent } from '../../../definitions/internal/agentToolSources.js';

/**
 * Stable identities for the agents of a graph. An agent whose name is unique is known by its name;
 * agents that share a name are `Name`, `Name#2`, `Name#3`, ... in the order a breadth-first walk
 * from the root meets them (handoffs in declaration order, then agent tools in declaration order).
 * A generated suffix skips names already taken by a real agent (a real `Name#2` pushes the
 * duplicate to `Name#3`). The same graph built the same way always gets the same identities.
 */
export interface AgentIdentityMap {
  readonly byIdentity: ReadonlyMap<string, Agent<any, any>>;
  readonly byAgent: ReadonlyMap<Agent<any, any>, string>;
  /** Agents in walk order, root first. */
  readonly agents: readonly Agent<any, any>[];
}

/** The agents a given agent leads to directly: handoff targets, then the agents behind its agent tools. */
export function agentNeighbours(agent: Agent<any, any>): Agent<any, any>[] {
  const out: Agent<any, any>[] = [];
  for (const handoff of agent.handoffs) {
    const target = (handoff as { agent?: unknown }).agent ?? handoff;
    if (isAgentLike(target)) out.push(target);
  }
  for (const tool of agent.tools) {
    const source = agentToolSourceAgent(tool);
    if (source) out.push(source);
  }
  return out;
}

/** Every agent reachable from `root` (handoffs and agent tools), root first, each once. */
export function walkAgentGraph(root: Agent<any, any>): Agent<any, any>[] {
  const seen = new Set<Agent<any, any>>([root]);
  const order: Agent<any, any>[] = [];
  for (let i = 0, queue = [root]; i < queue.length; i++) {
    const agent = queue[i]!;
    order.push(agent);
    for (const next of agentNeighbours(agent)) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return order;
}

const cache = new WeakMap<Agent<any, any>, AgentIdentityMap>();

export function buildAgentIdentityMap(root: Agent<any, any>): AgentIdentityMap {
  const agents = walkAgentGraph(root);
  // Graphs may change (handoffs are assignable), so a cached map is reused only for the same walk.
  const cached = cache.get(root);
  if (cached && sameAgents(cached.agents, agents)) return cached;

  const taken = new Set(agents.map((agent) => agent.name));
  const counts = new Map<string, number>();
  const byIdentity = new Map<string, Agent<any, any>>();
  const byAgent = new Map<Agent<any, any>, string>();
  for (const agent of agents) {
    const seen = counts.get(agent.name) ?? 0;
    let identity = agent.name;
    if (seen > 0) {
      let n = seen + 1;
      while (taken.has(`${agent.name}#${n}`) || byIdentity.has(`${agent.name}#${n}`)) n++;
      identity = `${agent.name}#${n}`;
      counts.set(agent.name, n);
    } else {
      counts.set(agent.name, 1);
    }
    byIdentity.set(identity, agent);
    byAgent.set(agent, identity);
  }
  const map = { byIdentity, byAgent, agents };
  cache.set(root, map);
  return map;
}

function sameAgents(a: readonly Agent<any, any>[], b: readonly Agent<any, any>[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * What a handoff's `agent` (else the handoff itself, so never null) must be to be walked: any value
 * with an agent's name and lists, as the reference walks any agent it is given.
 */
function isAgentLike(value: NonNullable<unknown>): value is Agent<any, any> {
  const candidate = value as { name?: unknown; handoffs?: unknown; tools?: unknown };
  return typeof candidate.name === 'string' && Array.isArray(candidate.handoffs) && Array.isArray(candidate.tools);
}
