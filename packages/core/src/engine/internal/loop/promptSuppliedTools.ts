import type { Agent } from '../../../definitions/agent.js';

/**
 * Whether a prompt template (Agent `prompt`) may supply tools the agent does not list, such as
 * Programmatic Tool Calling: it may when the agent has a prompt, unless the agent explicitly offers
 * no tools and no handoffs at all (then the request tells the provider to use none).
 */
export function promptMaySupplyTools(agent: Agent<any, any>, offered: { tools: number; handoffs: number }): boolean {
  if (agent.prompt === undefined) return false;
  return !(agent.hasExplicitToolConfig() && offered.tools === 0 && offered.handoffs === 0);
}
