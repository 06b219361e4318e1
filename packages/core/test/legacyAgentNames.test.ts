import { describe, expect, it } from 'vitest';
import { RunStateError } from '@baton/types';
import { Agent, RunContext, RunState } from '../src/index.js';

/**
 * A state `@openai/agents` wrote before agent identities (schema 1.0 to 1.9) names agents by name
 * alone: against a graph where two agents share a name it is refused, as the reference refuses it.
 */

function graph(duplicateNames: boolean) {
  const childA = new Agent({ name: 'SharedSkill' });
  const childB = new Agent({ name: duplicateNames ? 'SharedSkill' : 'OtherSkill' });
  const agentA = new Agent({ name: 'AgentA', handoffs: [childA] });
  const agentB = new Agent({ name: 'AgentB', tools: [childB.asTool({ toolName: 'skill', toolDescription: 'A skill.' })] });
  const root = new Agent({ name: 'Root', handoffs: [agentA, agentB] });
  return { root, childA, childB };
}

/** A state of `root`'s graph, written as `@openai/agents` schema `version` would name its current agent. */
function writtenAs(version: string, root: Agent, current: Agent): string {
  const json = new RunState(new RunContext(), 'input', current, 2).toJSON() as unknown as Record<string, unknown>;
  json.$schemaVersion = version;
  json.currentAgent = { name: current.name };
  void root;
  return JSON.stringify(json);
}

describe('reference states written before agent identities (schema 1.0 to 1.9)', () => {
  it.each(['1.0', '1.5', '1.9'])('schema %s against a graph with a shared name (one behind an agent tool) is refused, in the reference’s words', async (version) => {
    const { root, childA } = graph(true);
    const attempt = RunState.fromString(root, writtenAs(version, root, childA));
    await expect(attempt).rejects.toBeInstanceOf(RunStateError);
    await expect(attempt).rejects.toThrow('Duplicate agent name "SharedSkill" detected. Use unique agent names when serializing RunState.');
    await expect(attempt).rejects.toMatchObject({ reason: 'unresolved_agent', foundVersion: version });
  });

  it('fromStringWithContext refuses it too', async () => {
    const { root, childA } = graph(true);
    await expect(RunState.fromStringWithContext(root, writtenAs('1.9', root, childA), new RunContext())).rejects.toThrow('Duplicate agent name "SharedSkill"');
  });

  it('schema 1.9 against a graph whose names are unique is read', async () => {
    const { root, childB } = graph(false);
    const state = await RunState.fromString(root, writtenAs('1.9', root, childB));
    expect(state.currentAgent).toBe(childB);
  });

  it('schema 1.10 and later name agents by identity: a shared name is no reason to refuse', async () => {
    const { root, childA } = graph(true);
    const state = await RunState.fromString(root, writtenAs('1.10', root, childA));
    expect(state.currentAgent).toBe(childA);
  });

  it('Baton’s own states are not concerned (they carry identities)', async () => {
    const { root, childB } = graph(true);
    const written = new RunState(new RunContext(), 'input', root, 2);
    written._currentAgent = childB;
    const state = await RunState.fromString(root, written.toString());
    expect(state.currentAgent).toBe(childB);
  });
});
