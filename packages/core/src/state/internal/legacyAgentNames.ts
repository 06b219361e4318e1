import { RunStateError } from '@baton/types';
import type { Agent } from '../../definitions/agent.js';
import { walkAgentGraph } from './serialization/identity.js';

/** `@openai/agents` schema versions written before agent identities (1.10): their states name agents by name alone. */
const BEFORE_AGENT_IDENTITIES = /^1\.\d$/;

/**
 * A state `@openai/agents` wrote before agent identities (schema 1.0 to 1.9) names each agent by its
 * name alone, so against a graph where two agents share a name it cannot say which one it means: it
 * is refused, as the reference refuses it (in its words), whichever agents it names.
 */
export function requireUniqueNamesForLegacyState(root: Agent<any, any>, writtenVersion: string): void {
  if (!BEFORE_AGENT_IDENTITIES.test(writtenVersion)) return;
  const seen = new Set<string>();
  for (const agent of walkAgentGraph(root)) {
    if (seen.has(agent.name)) {
      throw new RunStateError(
        'unresolved_agent',
        `Duplicate agent name "${agent.name}" detected. Use unique agent names when serializing RunState. ` +
          `(The state was written with schema ${writtenVersion}, which names agents by name alone, so it cannot say which "${agent.name}" it means; states of schema 1.10 and later can.)`,
        { foundVersion: writtenVersion },
      );
    }
    seen.add(agent.name);
  }
}
