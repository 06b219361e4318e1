import { describe, expect, it } from 'vitest';
import { Agent, RunContext, RunState, RunStateError, defaultHandoff } from '../src/index.js';

// How a written run state names its agents (packages/hitl-state/README.md, "Agent identity", and the
// reference's `buildAgentIdentityMap`): an agent whose name is unique is `{ name }`; agents sharing a
// name get `Name`, `Name#2`, ... in a breadth-first walk from the root (root first, handoffs then
// agent tools, in declaration order), a generated suffix skipping names real agents have. Duplicates
// here are configured alike, so the reference's order (by configuration, then walk order) is the walk's.

const agent = (name: string) => new Agent({ name });

/** The reference written for `current` when it is the state's current agent, as JSON text and as toJSON() gives it. */
function refOf(root: Agent<any, any>, current: Agent<any, any>) {
  const state = new RunState(new RunContext(), 'hi', root, 5);
  state._currentAgent = current;
  const fromText = JSON.parse(state.toString()).currentAgent;
  expect(state.toJSON().currentAgent).toStrictEqual(fromText);
  return { ref: fromText as { name: string; identity?: string }, text: state.toString() };
}

type Case = [label: string, build: () => { root: Agent<any, any>; expected: Array<[Agent<any, any>, { name: string; identity?: string }]> }];

const cases: Case[] = [
  [
    'a unique name is the name alone',
    () => {
      const b = agent('B');
      const root = new Agent({ name: 'A', handoffs: [b] });
      return { root, expected: [[root, { name: 'A' }], [b, { name: 'B' }]] };
    },
  ],
  [
    'a duplicate behind a handoff to the agent itself',
    () => {
      const dup = agent('A');
      const root = new Agent({ name: 'A', handoffs: [dup] });
      return { root, expected: [[root, { name: 'A' }], [dup, { name: 'A', identity: 'A#2' }]] };
    },
  ],
  [
    'a duplicate behind a handoff object',
    () => {
      const dup = agent('A');
      const root = new Agent({ name: 'A', handoffs: [defaultHandoff(dup)] });
      return { root, expected: [[root, { name: 'A' }], [dup, { name: 'A', identity: 'A#2' }]] };
    },
  ],
  [
    'a duplicate behind an agent tool',
    () => {
      const dup = agent('A');
      const root = new Agent({ name: 'A', tools: [dup.asTool({ toolName: 'ask_a' })] });
      return { root, expected: [[root, { name: 'A' }], [dup, { name: 'A', identity: 'A#2' }]] };
    },
  ],
  [
    'three agents sharing a name count on',
    () => {
      const [a1, a2, a3] = [agent('S'), agent('S'), agent('S')];
      const root = new Agent({ name: 'R', handoffs: [a1, a2, a3] });
      return { root, expected: [[a1, { name: 'S' }], [a2, { name: 'S', identity: 'S#2' }], [a3, { name: 'S', identity: 'S#3' }]] };
    },
  ],
  [
    'a generated suffix skips a real agent named like it, met later in the walk',
    () => {
      const dup = agent('A');
      const real = agent('A#2');
      const third = agent('A');
      const root = new Agent({ name: 'A', handoffs: [dup, real, third] });
      return {
        root,
        expected: [
          [root, { name: 'A' }],
          [dup, { name: 'A', identity: 'A#3' }],
          [real, { name: 'A#2' }],
          [third, { name: 'A', identity: 'A#4' }],
        ],
      };
    },
  ],
  [
    'a generated suffix skips a real agent named like it, met earlier in the walk',
    () => {
      const real = agent('A#2');
      const dup = agent('A');
      const root = new Agent({ name: 'A', handoffs: [real, dup] });
      return { root, expected: [[root, { name: 'A' }], [real, { name: 'A#2' }], [dup, { name: 'A', identity: 'A#3' }]] };
    },
  ],
  [
    'breadth first: a handoff of the root comes before a handoff of a handoff',
    () => {
      const deep = agent('D');
      const middle = new Agent({ name: 'M', handoffs: [deep] });
      const shallow = agent('D');
      const root = new Agent({ name: 'R', handoffs: [middle, shallow] });
      return { root, expected: [[shallow, { name: 'D' }], [deep, { name: 'D', identity: 'D#2' }]] };
    },
  ],
  [
    'handoffs before agent tools, whatever the declaration order of the options',
    () => {
      const viaTool = agent('T');
      const viaHandoff = agent('T');
      const root = new Agent({ name: 'R', tools: [viaTool.asTool({ toolName: 'ask_t' })], handoffs: [viaHandoff] });
      return { root, expected: [[viaHandoff, { name: 'T' }], [viaTool, { name: 'T', identity: 'T#2' }]] };
    },
  ],
  [
    'a cycle back to the root does not count the root twice',
    () => {
      const root = agent('A');
      const dup = agent('A');
      const back = new Agent({ name: 'B', handoffs: [root, dup] });
      root.handoffs = [back];
      return { root, expected: [[root, { name: 'A' }], [back, { name: 'B' }], [dup, { name: 'A', identity: 'A#2' }]] };
    },
  ],
  [
    'an agent reached along two paths is counted once',
    () => {
      const shared = agent('D');
      const other = agent('D');
      const b = new Agent({ name: 'B', handoffs: [shared] });
      const c = new Agent({ name: 'C', handoffs: [shared, other] });
      const root = new Agent({ name: 'R', handoffs: [b, c] });
      return { root, expected: [[shared, { name: 'D' }], [other, { name: 'D', identity: 'D#2' }]] };
    },
  ],
];

describe('agent references in a written run state', () => {
  it.each(cases)('%s', async (_label, build) => {
    const { root, expected } = build();
    for (const [current, ref] of expected) {
      const { ref: written, text } = refOf(root, current);
      expect(written).toStrictEqual(ref);
      // What is written is read back as the same agent.
      const restored = await RunState.fromString(root, text);
      expect(restored.currentAgent).toBe(current);
    }
  });

  it('an agent outside the graph is written by name alone, even when its name is shared in the graph', () => {
    const root = new Agent({ name: 'A', handoffs: [agent('A')] });
    const stranger = agent('A');
    expect(refOf(root, stranger).ref).toStrictEqual({ name: 'A' });
  });

  it('agents of items, guardrail results and handoffs carry their identity too', async () => {
    const dup = agent('A');
    const root = new Agent({ name: 'A', handoffs: [dup] });
    const state = new RunState(new RunContext(), 'hi', root, 5);
    state._generatedItems.push({
      type: 'handoff_output_item',
      rawItem: { type: 'function_call_result', name: 'transfer_to_A', callId: 'h1', status: 'completed', output: { type: 'text', text: '{"assistant":"A"}' } },
      sourceAgent: root,
      targetAgent: dup,
    } as never);
    state._outputGuardrailResults = [{ guardrail: { type: 'output', name: 'g' }, agentOutput: 'x', agent: dup, output: { tripwireTriggered: false, outputInfo: null } }] as never;
    const json = JSON.parse(state.toString());
    expect(json.generatedItems[0].sourceAgent).toStrictEqual({ name: 'A' });
    expect(json.generatedItems[0].targetAgent).toStrictEqual({ name: 'A', identity: 'A#2' });
    expect(json.outputGuardrailResults[0].agent).toStrictEqual({ name: 'A', identity: 'A#2' });
    const restored = await RunState.fromString(root, state.toString());
    const item = restored.generatedItems[0] as { sourceAgent: unknown; targetAgent: unknown };
    expect(item.sourceAgent).toBe(root);
    expect(item.targetAgent).toBe(dup);
    expect(restored.outputGuardrailResults[0]!.agent).toBe(dup);
  });
});

describe('agent identities follow the graph as it is when the state is written', () => {
  it('an agent added, or handoffs reordered, after a first write changes the identities of the next write', () => {
    const first = agent('A');
    const second = agent('A');
    const root = new Agent({ name: 'A', handoffs: [first] });
    expect(refOf(root, first).ref).toStrictEqual({ name: 'A', identity: 'A#2' });

    // Appended: the walk so far is a prefix of the new one.
    root.handoffs = [first, second];
    expect(refOf(root, first).ref).toStrictEqual({ name: 'A', identity: 'A#2' });
    expect(refOf(root, second).ref).toStrictEqual({ name: 'A', identity: 'A#3' });

    // Same number of agents, another order.
    root.handoffs = [second, first];
    expect(refOf(root, second).ref).toStrictEqual({ name: 'A', identity: 'A#2' });
    expect(refOf(root, first).ref).toStrictEqual({ name: 'A', identity: 'A#3' });

    // One fewer: the removed agent is outside the graph.
    root.handoffs = [second];
    expect(refOf(root, second).ref).toStrictEqual({ name: 'A', identity: 'A#2' });
    expect(refOf(root, first).ref).toStrictEqual({ name: 'A' });
  });

  it('an agent replaced by another one, the graph keeping its size, is renamed', () => {
    const first = agent('A');
    const replacement = agent('A');
    const b = new Agent({ name: 'B', handoffs: [first] });
    const root = new Agent({ name: 'A', handoffs: [b] });
    expect(refOf(root, first).ref).toStrictEqual({ name: 'A', identity: 'A#2' });
    b.handoffs = [replacement];
    expect(refOf(root, replacement).ref).toStrictEqual({ name: 'A', identity: 'A#2' });
    expect(refOf(root, first).ref).toStrictEqual({ name: 'A' });
  });
});

describe('handoffs that do not lead to an agent', () => {
  // A handoff is any object with `toolName`, `onInvokeHandoff` and `getHandoffAsFunctionTool`; the
  // reference walks only an Agent or a handoff's `agent`, so one without an agent adds nothing.
  const contract = (extra: Record<string, unknown>) =>
    ({
      toolName: 'custom',
      toolDescription: '',
      inputJsonSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
      strictJsonSchema: true,
      agentName: 'nobody',
      isEnabled: () => true,
      onInvokeHandoff: () => undefined,
      getHandoffAsFunctionTool: () => ({ type: 'function', name: 'custom', description: '', parameters: {}, strict: true }),
      ...extra,
    }) as never;

  it.each([
    ['with no agent fields', {}],
    ['with a tools list', { tools: [] }],
    ['with handoffs and tools lists but no name', { tools: [], handoffs: ['filled below'] }],
    ['with a name and a tools list', { name: 'custom', tools: [] }],
    ['with a name and handoffs but no tools list', { name: 'custom', handoffs: ['filled below'] }],
  ])('a handoff without an agent, %s, is not walked', async (_label, extra) => {
    const hidden = agent('D');
    const visible = agent('D');
    const fields: Record<string, unknown> = { ...extra };
    if (Array.isArray(fields.handoffs)) fields.handoffs = [hidden];
    const root = new Agent({ name: 'R', handoffs: [contract(fields), visible] });
    const { ref, text } = refOf(root, visible);
    expect(ref).toStrictEqual({ name: 'D' });
    expect(refOf(root, hidden).ref).toStrictEqual({ name: 'D' });
    expect((await RunState.fromString(root, text)).currentAgent).toBe(visible);
  });
});

describe('reading against the walked graph', () => {
  it('a paused nested run whose agent tool no agent of the graph has is refused, naming the tool', async () => {
    const root = new Agent({ name: 'R', handoffs: [new Agent({ name: 'B', tools: [agent('Inner').asTool({ toolName: 'ask_inner' })] })] });
    const json = new RunState(new RunContext(), 'hi', root, 5).toJSON();
    json.pendingAgentToolRuns = { 'ghost:c1': '{}' };
    const error = await RunState.fromString(root, JSON.stringify(json)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunStateError);
    expect((error as RunStateError).reason).toBe('unresolved_tool');
    expect((error as Error).message).toContain('Agent tool ghost not found');
  });
});
