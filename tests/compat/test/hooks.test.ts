import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeOpenAIServer, fakeText, fakeToolCalls, type FakeTurn } from '@baton/testing';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

/**
 * The same lifecycle events: each program runs on both SDKs (OpenAI Responses model against the
 * fake server) with listeners on the runner and on every agent, and the event logs are compared.
 */

type Log = string[];

function listen(runner: any, agents: any[], log: Log) {
  const name = (agent: any) => agent?.name;
  const items = (input: unknown) => (Array.isArray(input) ? `${input.length} items` : String(input));
  for (const agent of agents) {
    agent.on('agent_start', (context: any, self: any, input: unknown) => log.push(`${agent.name}: start ${name(self)} (${items(input)}) ctx=${context?.context?.user}`));
    agent.on('agent_end', (_context: any, output: unknown) => log.push(`${agent.name}: end ${JSON.stringify(output)}`));
    agent.on('agent_handoff', (_context: any, next: any) => log.push(`${agent.name}: handoff to ${name(next)}`));
    agent.on('agent_tool_start', (_context: any, tool: any, details: any) => log.push(`${agent.name}: tool start ${tool.name} ${details.toolCall.callId}`));
    agent.on('agent_tool_end', (_context: any, tool: any, result: unknown, details: any) => log.push(`${agent.name}: tool end ${tool.name} ${JSON.stringify(result)} ${details.toolCall.callId}`));
  }
  runner.on('agent_start', (_context: any, agent: any, input: unknown) => log.push(`runner: start ${name(agent)} (${items(input)})`));
  runner.on('agent_end', (_context: any, agent: any, output: unknown) => log.push(`runner: end ${name(agent)} ${JSON.stringify(output)}`));
  runner.on('agent_handoff', (_context: any, from: any, to: any) => log.push(`runner: handoff ${name(from)} -> ${name(to)}`));
  runner.on('agent_tool_start', (_context: any, agent: any, tool: any, details: any) => log.push(`runner: tool start ${name(agent)} ${tool.name} ${details.toolCall.callId}`));
  runner.on('agent_tool_end', (_context: any, agent: any, tool: any, result: unknown) => log.push(`runner: tool end ${name(agent)} ${tool.name} ${JSON.stringify(result)}`));
}

function graph({ sdk }: SdkUnderTest, log: Log) {
  const lookup = sdk.tool({
    name: 'lookup',
    description: 'Find an order.',
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => {
      log.push('(lookup runs)');
      return { id, status: 'shipped' };
    },
  });
  const helper = new sdk.Agent({ name: 'Helper', instructions: 'Help.' });
  const specialist = new sdk.Agent({
    name: 'Specialist',
    instructions: 'Solve it.',
    tools: [helper.asTool({ toolName: 'helper_tool', toolDescription: 'Helps.' })],
    outputGuardrails: [{ name: 'polite', execute: async () => (log.push('(output guardrail)'), { tripwireTriggered: false, outputInfo: null }) }],
  });
  const triage = new sdk.Agent({ name: 'Triage', instructions: 'Route it.', tools: [lookup], handoffs: [specialist] });
  return { triage, agents: [triage, specialist, helper] };
}

const turns: FakeTurn[] = [
  fakeToolCalls([{ name: 'lookup', arguments: { id: 'A1' }, callId: 'c1' }]),
  fakeText('still thinking'),
];

async function events(under: SdkUnderTest, script: readonly FakeTurn[], program: (runner: any, log: Log) => Promise<unknown>) {
  const server = await FakeOpenAIServer.start({ turns: script });
  under.sdk.setTracingDisabled(true);
  try {
    const runner = new under.sdk.Runner({ modelProvider: new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true }) } as never);
    const log: Log = [];
    const outcome = await outcomeOf(program(runner, log));
    return { log, ok: outcome.ok };
  } finally {
    under.sdk.setTracingDisabled(false);
    await server.close();
  }
}

const fullTurns: FakeTurn[] = [
  fakeToolCalls([{ name: 'lookup', arguments: { id: 'A1' }, callId: 'c1' }]),
  fakeToolCalls([{ name: 'transfer_to_Specialist', arguments: {}, callId: 'c2' }]),
  fakeToolCalls([{ name: 'helper_tool', arguments: { input: 'x' }, callId: 'c3' }]),
  fakeText('inner'),
  fakeText('done'),
];

describe('the same lifecycle events as the reference', () => {
  it.each([false, true])('a tool, a handoff, a nested agent tool and an output guardrail (streamed: %s)', async (stream) => {
    const both = await onBoth((under) =>
      events(under, fullTurns, async (runner, log) => {
        const { triage, agents } = graph(under, log);
        listen(runner, agents, log);
        if (!stream) return runner.run(triage, 'hi', { context: { user: 'ada' } });
        const result = await runner.run(triage, 'hi', { stream: true, context: { user: 'ada' } });
        for await (const _event of result) {
          // drain
        }
        await result.completed;
      }),
    );
    expect(both.baton.log).toEqual(both.reference.log);
    expect(both.baton.log).toContain('runner: handoff Triage -> Specialist');
    expect(both.baton.ok).toBe(true);
  });

  it('a second turn of the same agent does not start it again', async () => {
    const both = await onBoth((under) =>
      events(under, turns, async (runner, log) => {
        const { triage, agents } = graph(under, log);
        listen(runner, agents, log);
        return runner.run(triage, 'hi');
      }),
    );
    expect(both.baton.log).toEqual(both.reference.log);
    expect(both.baton.log.filter((line) => line.startsWith('runner: start'))).toHaveLength(1);
  });

  it('a paused run resumed after approval', async () => {
    const both = await onBoth((under) =>
      events(under, [fakeToolCalls([{ name: 'refund', arguments: { amount: 5 }, callId: 'c1' }]), fakeText('refunded')], async (runner, log) => {
        const { sdk } = under;
        const refund = sdk.tool({ name: 'refund', description: 'Refund.', parameters: z.object({ amount: z.number() }), needsApproval: true, execute: () => 'ok' });
        const agent = new sdk.Agent({ name: 'Cashier', tools: [refund] });
        listen(runner, [agent], log);
        const paused = await runner.run(agent, 'refund me');
        log.push('-- paused --');
        paused.state.approve(paused.interruptions[0]!);
        return runner.run(agent, paused.state);
      }),
    );
    expect(both.baton.log).toEqual(both.reference.log);
  });
});

describe('listeners that throw', () => {
  it('reference: a throwing listener fails the run; Baton: the run goes on and the error is logged', async () => {
    const both = await onBoth((under) =>
      events(under, turns, async (runner, log) => {
        const { triage, agents } = graph(under, log);
        listen(runner, agents, log);
        triage.on('agent_start', () => {
          throw new Error('listener bug');
        });
        return runner.run(triage, 'hi');
      }),
    );
    expect(both.reference.ok).toBe(false);
    expect(both.baton.ok).toBe(true);
    expect(both.baton.log).toContain('runner: end Triage "still thinking"');
  });
});
