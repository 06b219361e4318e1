import type { Agent } from '../agent.js';

/**
 * The agent behind each `agent.asTool()` tool, so the agent graph (and a run state read against it)
 * can walk through agent tools without reaching the engine that runs them.
 */
const agentToolSources = new WeakMap<object, Agent<any, any>>();

export function registerAgentToolSource(tool: object, agent: Agent<any, any>): void {
  agentToolSources.set(tool, agent);
}

/** The agent an `agent.asTool()` tool runs, or undefined for any other tool. */
export function agentToolSourceAgent(tool: object): Agent<any, any> | undefined {
  return agentToolSources.get(tool);
}
