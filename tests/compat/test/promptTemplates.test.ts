import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeOpenAIServer, fakeText, fakeToolCalls, type FakeTurn } from '@baton/testing';
import { onBoth, type SdkUnderTest } from './sdks.js';

// Agent `prompt` (a stored prompt template: id, version, variables) and the reasoning settings the
// reference's examples use, run on both SDKs through the real `openai` client against the fake
// OpenAI server: the recorded request bodies must be the same.

type Program = (under: SdkUnderTest, runner: InstanceType<SdkUnderTest['sdk']['Runner']>) => Promise<unknown>;

async function bodiesOf(under: SdkUnderTest, turns: readonly FakeTurn[], program: Program): Promise<unknown[]> {
  const server = await FakeOpenAIServer.start({ turns });
  try {
    const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
    const runner = new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
    await program(under, runner);
    return server.requests.map((r) => r.body);
  } finally {
    await server.close();
  }
}

async function sameOnTheWire(turns: readonly FakeTurn[], program: Program): Promise<Array<Record<string, any>>> {
  const both = await onBoth((under) => bodiesOf(under, turns, program));
  expect(both.baton).toEqual(both.reference);
  expect(both.baton.length).toBe(turns.length);
  return both.baton as Array<Record<string, any>>;
}

const template = { promptId: 'pmpt_poems', version: '3', variables: { poem_style: 'haiku' } };

describe('Agent prompt: a stored prompt template (same requests on both SDKs)', () => {
  it.each([
    ['a template and no model: the template’s model is used', {}, false],
    ['a template and a model on the agent: the agent’s model wins', { model: 'gpt-4.1' }, true],
    ['a template and tools given as an empty list: the template’s tools are not used', { tools: [] }, false],
  ] as const)('%s', async (_label, options, modelSent) => {
    const [body] = await sameOnTheWire([fakeText('a poem')], async ({ sdk }, runner) => {
      await runner.run(new sdk.Agent({ name: 'Poet', prompt: template, ...options }), 'write');
    });
    expect(body!.prompt).toEqual({ id: 'pmpt_poems', version: '3', variables: { poem_style: 'haiku' } });
    expect('model' in body!).toBe(modelSent);
  });

  it('a template chosen by a function of the run context, on every turn', async () => {
    const bodies = await sameOnTheWire(
      [fakeToolCalls([{ name: 'pick', arguments: {}, callId: 'c1' }]), fakeText('done')],
      async ({ sdk }, runner) => {
        let turn = 0;
        const pick = sdk.tool({ name: 'pick', description: 'Pick.', parameters: z.object({}), execute: () => 'picked' });
        const agent = new sdk.Agent<{ style: string }>({
          name: 'Poet',
          tools: [pick],
          prompt: async (runContext) => ({ promptId: 'pmpt_poems', variables: { poem_style: `${runContext.context.style}-${++turn}` } }),
        });
        await runner.run(agent, 'write', { context: { style: 'ballad' } });
      },
    );
    expect(bodies.map((body) => body.prompt.variables.poem_style)).toEqual(['ballad-1', 'ballad-2']);
  });

  it('a prompt that is not a template is refused when the agent is made, naming the option', async () => {
    const both = await onBoth(async ({ sdk }) => {
      try {
        new sdk.Agent({ name: 'Poet', prompt: 'pmpt_poems' as never });
        return 'accepted';
      } catch (error) {
        return (error as Error).name;
      }
    });
    // The reference accepts anything and fails at the request; Baton says what is wrong at once.
    expect(both.baton).toBe('UserError');
  });
});

describe('reasoning settings the GPT-5 family takes (same requests on both SDKs)', () => {
  it.each(['xhigh', 'max'] as const)("effort '%s' with a reasoning context and mode", async (effort) => {
    const [body] = await sameOnTheWire([fakeText('ok')], async ({ sdk }, runner) => {
      const agent = new sdk.Agent({ name: 'Thinker', model: 'gpt-5.6-sol', modelSettings: { reasoning: { effort, context: 'all_turns', mode: 'pro' } } });
      await runner.run(agent, 'think');
    });
    expect(body!.reasoning).toMatchObject({ effort, context: 'all_turns', mode: 'pro' });
  });
});

describe('agent fields assigned after construction (as the reference’s examples do)', () => {
  it('an input guardrail, an output guardrail and a tool assigned later take part in the run', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const seen: string[] = [];
      const agent = new sdk.Agent({ name: 'Assistant' });
      agent.tools = [sdk.tool({ name: 'pick', description: 'Pick.', parameters: z.object({}), execute: () => (seen.push('tool'), 'picked') })];
      agent.inputGuardrails = [{ name: 'in', execute: async () => (seen.push('input'), { tripwireTriggered: false, outputInfo: null }) }];
      agent.outputGuardrails = [{ name: 'out', execute: async () => (seen.push('output'), { tripwireTriggered: false, outputInfo: null }) }];
      const server = await FakeOpenAIServer.start({ turns: [fakeToolCalls([{ name: 'pick', arguments: {}, callId: 'c1' }]), fakeText('done')] });
      try {
        const provider = new sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
        const result = await new sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never).run(agent, 'go');
        return { finalOutput: result.finalOutput, seen: [...seen].sort(), offered: (server.requests[0]!.body as any).tools.map((t: any) => t.name) };
      } finally {
        await server.close();
      }
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({ finalOutput: 'done', seen: ['input', 'output', 'tool'], offered: ['pick'] });
  });

  it('a clone carries the tools assigned to the original', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const agent = new sdk.Agent({ name: 'Assistant' });
      agent.tools = [sdk.tool({ name: 'pick', description: 'Pick.', parameters: z.object({}), execute: () => 'picked' })];
      return agent.clone({ name: 'Copy' }).tools.map((t: { name: string }) => t.name);
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual(['pick']);
  });

  it('Baton checks an assignment as it checks the option', async () => {
    const { Agent } = await import('@baton/agents');
    const agent = new Agent({ name: 'Assistant' });
    expect(() => {
      agent.tools = 'pick' as never;
    }).toThrow('Agent "Assistant": `tools` must be an array, got string.');
    expect(() => {
      agent.inputGuardrails = [{ name: 'no execute' } as never];
    }).toThrow(/Agent "Assistant": `inputGuardrails`/);
  });
});
