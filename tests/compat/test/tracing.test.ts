import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeOpenAIServer, fakeText, fakeToolCalls, type FakeTurn } from '@baton/testing';
import { createRequire } from 'node:module';
import { MCPServerStdio } from '@baton/agents';
import { onBoth, outcomeOf, sdks, type SdkUnderTest } from './sdks.js';

/**
 * The same span trees: each program runs on both SDKs through their OpenAI Responses models
 * against the fake OpenAI server, with a processor that records every span as it ends. Trees are
 * compared as nested `type name {span_data} error` lines (ids and timestamps left out).
 */

afterEach(() => {
  for (const { sdk } of sdks) sdk.setTraceProcessors([]);
});

interface Ended {
  id: string;
  parent: string | null;
  trace: string;
  json: Record<string, any>;
}

function recorder() {
  const ended: Ended[] = [];
  const traces: Record<string, any>[] = [];
  const order: string[] = [];
  const processor = {
    async onTraceStart(trace: any) {
      traces.push(trace.toJSON());
      order.push('trace_start');
    },
    async onTraceEnd() {
      order.push('trace_end');
    },
    async onSpanStart(span: any) {
      order.push(`start ${span.spanData.type}`);
    },
    async onSpanEnd(span: any) {
      order.push(`end ${span.spanData.type}`);
      ended.push({ id: span.spanId, parent: span.parentId, trace: span.traceId, json: span.toJSON() });
    },
    async shutdown() {},
    async forceFlush() {},
  };
  return { processor, ended, traces, order };
}

function treeOf(ended: readonly Ended[]): string[] {
  const lines: string[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const span of ended.filter((s) => s.parent === parent)) {
      lines.push(`${'  '.repeat(depth)}${canonical(span.json.span_data)}${span.json.error ? ` error=${canonical(span.json.error)}` : ''}`);
      walk(span.id, depth + 1);
    }
  };
  walk(null, 0);
  return lines;
}

/** JSON with keys sorted: the same object whatever order its fields were set in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, field) =>
    field && typeof field === 'object' && !Array.isArray(field) ? Object.fromEntries(Object.entries(field).sort(([a], [b]) => a.localeCompare(b))) : field,
  );
}

type Program = (under: SdkUnderTest, runner: any) => Promise<unknown>;

async function traced(under: SdkUnderTest, turns: readonly FakeTurn[], program: Program, config: Record<string, unknown> = {}) {
  const server = await FakeOpenAIServer.start({ turns });
  const record = recorder();
  under.sdk.setTraceProcessors([record.processor as never]);
  under.sdk.setTracingDisabled(false);
  try {
    const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
    const runner = new under.sdk.Runner({ modelProvider: provider, ...config } as never);
    const outcome = await outcomeOf(program(under, runner));
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { tree: treeOf(record.ended), traces: record.traces.map(({ id: _id, ...rest }) => rest), ok: outcome.ok, ended: record.ended };
  } finally {
    under.sdk.setTraceProcessors([]);
    await server.close();
  }
}

async function sameTree(
  turns: readonly FakeTurn[],
  program: Program,
  config: Record<string, unknown> = {},
  referenceTree = (tree: string[]) => tree,
  referenceTraces = (traces: Record<string, any>[]) => traces,
) {
  const both = await onBoth((under) => traced(under, turns, program, config));
  expect(both.baton.tree).toEqual(referenceTree(both.reference.tree));
  expect(both.baton.traces).toEqual(referenceTraces(both.reference.traces));
  expect(both.baton.ok).toBe(both.reference.ok);
  expect(both.baton.tree.length).toBeGreaterThan(0);
  return both;
}

function graph({ sdk }: SdkUnderTest) {
  const lookup = sdk.tool({ name: 'lookup', description: 'Find an order.', parameters: z.object({ id: z.string() }), execute: ({ id }) => `found ${id}` });
  const helper = new sdk.Agent({ name: 'Helper', instructions: 'Help.' });
  const specialist = new sdk.Agent({
    name: 'Specialist',
    instructions: 'Solve it.',
    tools: [helper.asTool({ toolName: 'helper_tool', toolDescription: 'Helps.' })],
    outputGuardrails: [{ name: 'polite', execute: async () => ({ tripwireTriggered: false, outputInfo: null }) }],
  });
  return new sdk.Agent({
    name: 'Triage',
    instructions: 'Route it.',
    tools: [lookup],
    handoffs: [specialist],
    inputGuardrails: [{ name: 'on_topic', execute: async () => ({ tripwireTriggered: false, outputInfo: { fine: true } }) }],
  });
}

const fullTurns = [
  fakeToolCalls([{ name: 'lookup', arguments: { id: 'A1' }, callId: 'c1' }]),
  fakeToolCalls([{ name: 'transfer_to_Specialist', arguments: {}, callId: 'c2' }]),
  fakeToolCalls([{ name: 'helper_tool', arguments: { input: 'x' }, callId: 'c3' }]),
  fakeText('inner'),
  fakeText('done'),
];

describe('the same span trees as the reference', () => {
  it.each([
    ['with sensitive data', {}],
    ['with a workflow name, group and metadata', { workflowName: 'Support', groupId: 'group_1', traceMetadata: { tier: 'gold' } }],
    ['without task and turn spans', { tracing: { includeTaskAndTurnSpans: false } }],
  ])('a tool, a guardrail, a handoff and a nested agent tool (%s)', async (_label, config) => {
    await sameTree(fullTurns, async (under, runner) => runner.run(graph(under), 'hi'), config);
  });

  it('without sensitive data, nested agent-tool runs keep it out too (the reference lets their response ids in)', async () => {
    await sameTree(fullTurns, async (under, runner) => runner.run(graph(under), 'hi'), { traceIncludeSensitiveData: false }, (tree) =>
      tree.map((line) => line.replace('"response_id":"resp_8",', '')),
    );
  });

  it('streamed', async () => {
    await sameTree(fullTurns, async (under, runner) => {
      const result = await runner.run(graph(under), 'hi', { stream: true });
      for await (const _event of result) {
        // drain
      }
      await result.completed;
    });
  });

  it('an agent with an MCP server: an mcp_tools span per turn, and the server on its function spans', async () => {
    const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
    const turns = [fakeToolCalls([{ name: 'echo', arguments: { message: 'hi' }, callId: 'c1' }]), fakeText('done')];
    await sameTree(turns, async ({ sdk }, runner) => {
      const server = new MCPServerStdio({ name: 'everything', command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore', toolFilter: { allowedToolNames: ['echo', 'get-sum'] } });
      await server.connect();
      try {
        return await runner.run(new sdk.Agent({ name: 'Helper', mcpServers: [server as never] }), 'go');
      } finally {
        await server.close();
      }
    });
  });

  it('a tool that fails the run', async () => {
    const both = await sameTree([fakeToolCalls([{ name: 'broken', arguments: {}, callId: 'c1' }])], async ({ sdk }, runner) => {
      const broken = sdk.tool({ name: 'broken', description: 'Fails.', parameters: z.object({}), errorFunction: null, execute: () => { throw new Error('disk on fire'); } } as never);
      return runner.run(new sdk.Agent({ name: 'Worker', tools: [broken] }), 'go');
    });
    expect(both.baton.ok).toBe(false);
  });

  it('a tool that fails the run, without sensitive data: Baton redacts the tool’s error (a deliberate difference: the reference exports it)', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const both = await sameTree(
      [fakeToolCalls([{ name: 'broken', arguments: { card: 'card-4111' }, callId: 'c1' }])],
      async ({ sdk }, runner) => {
        const broken = sdk.tool({
          name: 'broken',
          description: 'Fails.',
          parameters: z.object({ card: z.string() }),
          errorFunction: null,
          execute: ({ card }: { card: string }) => {
            throw new Error(`rejected ${card} with key ${secret}`);
          },
        } as never);
        return runner.run(new sdk.Agent({ name: 'Worker', tools: [broken] }), 'go');
      },
      { traceIncludeSensitiveData: false },
      // The reference puts the tool's error text (its argument and the key) on the function span
      // even without sensitive data; Baton writes the reference's own redaction message instead.
      (tree) => {
        expect(tree.join('\n')).toContain(secret);
        return tree.map((line) => line.replace(`Error: rejected card-4111 with key ${secret}`, 'Tool execution failed. Error details are redacted.'));
      },
    );
    expect(both.baton.tree.join('\n')).not.toContain(secret);
    expect(both.baton.tree.join('\n')).not.toContain('card-4111');
  });

  it('a tool that throws, answered by its error function', async () => {
    await sameTree([fakeToolCalls([{ name: 'flaky', arguments: {}, callId: 'c1' }]), fakeText('sorry')], async ({ sdk }, runner) => {
      const flaky = sdk.tool({ name: 'flaky', description: 'Fails.', parameters: z.object({}), execute: () => { throw new Error('timeout upstream'); } });
      return runner.run(new sdk.Agent({ name: 'Worker', tools: [flaky] }), 'go');
    });
  });

  it('a tool that throws, answered by its own error function', async () => {
    await sameTree([fakeToolCalls([{ name: 'flaky', arguments: {}, callId: 'c1' }]), fakeText('sorry')], async ({ sdk }, runner) => {
      const flaky = sdk.tool({
        name: 'flaky',
        description: 'Fails.',
        parameters: z.object({}),
        errorFunction: (_context: unknown, error: unknown) => `could not: ${String(error)}`,
        execute: () => { throw new Error('timeout upstream'); },
      } as never);
      return runner.run(new sdk.Agent({ name: 'Worker', tools: [flaky] }), 'go');
    });
  });

  it('a tripped input guardrail', async () => {
    await sameTree([fakeText('never')], async ({ sdk }, runner) => {
      const agent = new sdk.Agent({
        name: 'Guarded',
        inputGuardrails: [{ name: 'blocker', runInParallel: false, execute: async () => ({ tripwireTriggered: true, outputInfo: null }) }],
      });
      return runner.run(agent, 'bad');
    });
  });

  it('withTrace around two runs and a custom span', async () => {
    await sameTree([fakeText('one'), fakeText('two')], async ({ sdk }, runner) => {
      await sdk.withTrace('Joke workflow', async () => {
        const agent = new sdk.Agent({ name: 'Joker', instructions: 'Be funny.' });
        await runner.run(agent, 'first');
        await sdk.withCustomSpan(async (span: any) => void (span.spanData.data.step = 'between'), { data: { name: 'pause', data: {} } });
        await runner.run(agent, 'second');
      });
    });
  });

  it('a paused run and its resumption (after a round trip through a string) continue one trace', async () => {
    const both = await sameTree(
      [fakeToolCalls([{ name: 'refund', arguments: { amount: 5 }, callId: 'c1' }]), fakeText('refunded')],
      async ({ sdk }, runner) => {
        const refund = sdk.tool({ name: 'refund', description: 'Refund.', parameters: z.object({ amount: z.number() }), needsApproval: true, execute: ({ amount }) => `refunded ${amount}` });
        const agent = new sdk.Agent({ name: 'Cashier', tools: [refund] });
        const paused = await runner.run(agent, 'refund me');
        expect(paused.interruptions).toHaveLength(1);
        const state = await sdk.RunState.fromString(agent, paused.state.toString());
        state.approve(state.getInterruptions()[0]!);
        return runner.run(agent, state);
      },
      { tracing: { apiKey: 'sk-trace-secret' } },
    );
    // Both runs report into the same trace, on both SDKs.
    expect(new Set(both.baton.ended.map((span) => span.trace)).size).toBe(1);
    expect(new Set(both.reference.ended.map((span) => span.trace)).size).toBe(1);
  });

  it.each([
    ['with sensitive data', {}],
    ['without sensitive data', { traceIncludeSensitiveData: false }],
  ])('a rejected call (%s)', async (_label, config) => {
    await sameTree(
      [fakeToolCalls([{ name: 'refund', arguments: { amount: 5 }, callId: 'c1' }]), fakeText('not refunded')],
      async ({ sdk }, runner) => {
        const refund = sdk.tool({ name: 'refund', description: 'Refund.', parameters: z.object({ amount: z.number() }), needsApproval: true, execute: () => 'refunded' });
        const agent = new sdk.Agent({ name: 'Cashier', tools: [refund] });
        const paused = await runner.run(agent, 'refund me');
        // Through a string: resuming the same in-memory state, the reference does not start the
        // trace again (Baton does, as it does for a state read from a string).
        const state = await sdk.RunState.fromString(agent, paused.state.toString());
        state.reject(state.getInterruptions()[0]!, { message: 'Refunds need a manager.' } as never);
        return runner.run(agent, state);
      },
      config,
    );
  });

  it('the run state keeps the trace, and its API key only when asked to', async () => {
    const both = await onBoth(async (under) => {
      const { sdk } = under;
      const server = await FakeOpenAIServer.start({ turns: [fakeToolCalls([{ name: 'refund', arguments: { amount: 5 }, callId: 'c1' }])] });
      const record = recorder();
      sdk.setTraceProcessors([record.processor as never]);
      sdk.setTracingDisabled(false);
      try {
        const provider = new sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
        const runner = new sdk.Runner({ modelProvider: provider, workflowName: 'Refunds', groupId: 'group_7', traceMetadata: { shop: 'north' }, tracing: { apiKey: 'sk-trace-secret' } } as never);
        const refund = sdk.tool({ name: 'refund', description: 'Refund.', parameters: z.object({ amount: z.number() }), needsApproval: true, execute: () => 'ok' });
        const paused = await runner.run(new sdk.Agent({ name: 'Cashier', tools: [refund] }), 'refund me');
        const plain = JSON.parse(paused.state.toString()).trace;
        const withKey = JSON.parse(paused.state.toString({ includeTracingApiKey: true })).trace;
        const { id, ...rest } = plain;
        return { traceIdShape: /^trace_[0-9a-f]{32}$/.test(id), rest, keyOnlyWhenAsked: withKey.tracing_api_key };
      } finally {
        sdk.setTraceProcessors([]);
        await server.close();
      }
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.rest).not.toHaveProperty('tracing_api_key');
    expect(both.baton.keyOnlyWhenAsked).toBe('sk-trace-secret');
  });

  it('the tracing guide: withTrace around two runs, custom spans in a tool and in lifecycle hooks', async () => {
    await sameTree([fakeToolCalls([{ name: 'lookup', arguments: { id: 'A1' }, callId: 'c1' }]), fakeText('found it'), fakeText('rated')], async ({ sdk }, runner) => {
      const lookup = sdk.tool({
        name: 'lookup',
        description: 'Find an order.',
        parameters: z.object({ id: z.string() }),
        execute: ({ id }) => sdk.withCustomSpan(async (span: any) => ((span.spanData.data.rows = 1), `found ${id}`), { data: { name: 'db_query', data: { table: 'orders' } } }),
      });
      const agent = new sdk.Agent({ name: 'Support', tools: [lookup] });
      for (const event of ['agent_start', 'agent_tool_start', 'agent_tool_end', 'agent_end'] as const) {
        // A hook's span nests under the span that is current when the hook runs.
        runner.on(event, () => sdk.createCustomSpan({ data: { name: `hook ${event}`, data: { kind: sdk.getCurrentSpan()?.spanData.type ?? 'none' } } }).end());
      }
      await sdk.withTrace('Support session', async () => {
        const first = await runner.run(agent, 'Where is A1?');
        await runner.run(agent, `Rate this answer: ${first.finalOutput}`);
      }, { groupId: 'conversation_42', metadata: { channel: 'chat' } });
    });
  });

  it('a run paused on the reference and resumed on Baton continues the reference’s trace', async () => {
    const [reference, baton] = sdks;
    const server = await FakeOpenAIServer.start({ turns: [fakeToolCalls([{ name: 'refund', arguments: { amount: 5 }, callId: 'c1' }]), fakeText('refunded')] });
    const referenceRecord = recorder();
    const batonRecord = recorder();
    try {
      const agentOn = ({ sdk }: SdkUnderTest) =>
        new sdk.Agent({ name: 'Cashier', tools: [sdk.tool({ name: 'refund', description: 'Refund.', parameters: z.object({ amount: z.number() }), needsApproval: true, execute: () => 'ok' })] });
      const runnerOn = ({ sdk }: SdkUnderTest) => new sdk.Runner({ modelProvider: new sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true }) } as never);
      reference!.sdk.setTraceProcessors([referenceRecord.processor as never]);
      reference!.sdk.setTracingDisabled(false);
      const paused = await runnerOn(reference!).run(agentOn(reference!), 'refund me');
      const stored = paused.state.toString();

      baton!.sdk.setTraceProcessors([batonRecord.processor as never]);
      baton!.sdk.setTracingDisabled(false);
      const agent = agentOn(baton!);
      const state = await baton!.sdk.RunState.fromString(agent, stored);
      state.approve(state.getInterruptions()[0]!);
      const result = await runnerOn(baton!).run(agent, state);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(result.finalOutput).toBe('refunded');
      const referenceTrace = new Set(referenceRecord.ended.map((span) => span.trace));
      expect(referenceTrace.size).toBe(1);
      expect(batonRecord.ended.length).toBeGreaterThan(2);
      expect(new Set(batonRecord.ended.map((span) => span.trace))).toEqual(referenceTrace);
    } finally {
      await server.close();
    }
  });

  it('a nested agent tool that pauses for approval, resumed through a string', async () => {
    await sameTree(
      [
        fakeToolCalls([{ name: 'accountant', arguments: { input: 'refund 5' }, callId: 'outer1' }]),
        fakeToolCalls([{ name: 'refund', arguments: { amount: 5 }, callId: 'inner1' }]),
        fakeText('refunded 5'),
        fakeText('all done'),
      ],
      async ({ sdk }, runner) => {
        const refund = sdk.tool({ name: 'refund', description: 'Refund.', parameters: z.object({ amount: z.number() }), needsApproval: true, execute: ({ amount }) => `refunded ${amount}` });
        const accountant = new sdk.Agent({ name: 'Accountant', tools: [refund] });
        const agent = new sdk.Agent({ name: 'Desk', tools: [accountant.asTool({ toolName: 'accountant', toolDescription: 'Does refunds.' })] });
        const paused = await runner.run(agent, 'refund me');
        const state = await sdk.RunState.fromString(agent, paused.state.toString());
        state.approve(state.getInterruptions()[0]!);
        return runner.run(agent, state);
      },
      {},
      (tree) => tree,
      // The reference starts the trace a third time for the resumed nested run (the ingest gets the
      // same trace twice); Baton's nested run stays in the trace it is already in.
      (traces) => {
        expect(traces).toHaveLength(3);
        expect(traces[2]).toEqual(traces[1]);
        return traces.slice(0, 2);
      },
    );
  });
});
