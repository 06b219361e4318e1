import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeOpenAIServer, fakeText, fakeToolCalls, type FakeTurn } from '@baton/testing';
import { onBoth, type SdkUnderTest } from './sdks.js';

/**
 * The same requests on the wire: each program runs on both SDKs through their OpenAI providers
 * (the real `openai` client) against the fake OpenAI server with the same scripted turns, and the
 * recorded request bodies are compared field by field.
 */

type Program = (under: SdkUnderTest, runner: InstanceType<SdkUnderTest['sdk']['Runner']>) => Promise<unknown>;

async function bodiesOf(under: SdkUnderTest, turns: readonly FakeTurn[], program: Program, useResponses = true): Promise<unknown[]> {
  const server = await FakeOpenAIServer.start({ turns });
  try {
    const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses });
    const runner = new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
    await program(under, runner);
    return server.requests.map((r) => ({ path: r.path, body: r.body }));
  } finally {
    await server.close();
  }
}

async function sameOnTheWire(turns: readonly FakeTurn[], program: Program, useResponses = true) {
  const both = await onBoth((under) => bodiesOf(under, turns, program, useResponses));
  expect(both.baton).toEqual(both.reference);
  expect(both.baton.length).toBeGreaterThan(0);
}

const lookup = ({ sdk }: SdkUnderTest, options: Record<string, unknown> = {}) =>
  sdk.tool({
    name: 'lookup_order',
    description: 'Find an order by id.',
    parameters: z.object({ orderId: z.string(), verbose: z.boolean().optional() }),
    execute: ({ orderId }) => ({ orderId, status: 'delivered' }),
    ...options,
  });

describe.each([true, false])('the same request bodies (Responses API: %s)', (useResponses) => {
  it('a plain agent with instructions and model settings', async () => {
    await sameOnTheWire(
      [fakeText('hello')],
      async ({ sdk }, runner) => {
        const agent = new sdk.Agent({ name: 'Greeter', instructions: 'Be brief.', model: 'gpt-4.1', modelSettings: { temperature: 0.2, maxTokens: 50 } });
        await runner.run(agent, 'hi');
      },
      useResponses,
    );
  });

  it('the default model with its default settings', async () => {
    await sameOnTheWire([fakeText('hello')], async ({ sdk }, runner) => void (await runner.run(new sdk.Agent({ name: 'Plain' }), 'hi')), useResponses);
  });

  it('tools with guardrails: a call, its output, and the answer', async () => {
    await sameOnTheWire(
      [fakeToolCalls([{ name: 'lookup_order', arguments: { orderId: 'A1', verbose: null }, callId: 'c1' }]), fakeText('delivered')],
      async (under, runner) => {
        const guard = under.sdk.defineToolInputGuardrail({ name: 'ids', run: async () => under.sdk.ToolGuardrailFunctionOutputFactory.allow() });
        const agent = new under.sdk.Agent({ name: 'Orders', instructions: 'Look orders up.', model: 'gpt-4.1', tools: [lookup(under, { inputGuardrails: [guard] })] });
        const inputGuard = { name: 'polite', execute: async () => ({ tripwireTriggered: false, outputInfo: null }) };
        await runner.run(agent.clone({ inputGuardrails: [inputGuard] }), 'where is A1?');
      },
      useResponses,
    );
  });

  it('structured output', async () => {
    await sameOnTheWire(
      [fakeText('{"city":"Paris","note":"sunny"}')],
      async ({ sdk }, runner) => {
        const agent = new sdk.Agent({ name: 'Weather', model: 'gpt-4.1', outputType: z.object({ city: z.string(), note: z.string().optional() }) });
        await runner.run(agent, 'weather?');
      },
      useResponses,
    );
  });

  it('a handoff', async () => {
    await sameOnTheWire(
      [fakeToolCalls([{ name: 'transfer_to_Billing', arguments: {}, callId: 'h1' }]), fakeText('refunded')],
      async ({ sdk }, runner) => {
        const billing = new sdk.Agent({ name: 'Billing', instructions: 'Handle refunds.', model: 'gpt-4.1', handoffDescription: 'Refunds' });
        const triage = new sdk.Agent({ name: 'Triage', instructions: 'Route.', model: 'gpt-4.1', handoffs: [billing] });
        await runner.run(triage, 'refund please');
      },
      useResponses,
    );
  });

  it('an approval, then the resumed run', async () => {
    await sameOnTheWire(
      [fakeToolCalls([{ name: 'lookup_order', arguments: { orderId: 'A1', verbose: true }, callId: 'c1' }]), fakeText('done')],
      async (under, runner) => {
        const agent = new under.sdk.Agent({ name: 'Orders', model: 'gpt-4.1', tools: [lookup(under, { needsApproval: true })] });
        const paused = await runner.run(agent, 'look A1 up');
        paused.state.approve(paused.interruptions[0]!);
        await runner.run(agent, paused.state);
      },
      useResponses,
    );
  });

  it('a streamed run with a tool', async () => {
    await sameOnTheWire(
      [fakeToolCalls([{ name: 'lookup_order', arguments: { orderId: 'B2', verbose: false }, callId: 'c1' }]), fakeText('on its way')],
      async (under, runner) => {
        const agent = new under.sdk.Agent({ name: 'Orders', model: 'gpt-4.1', tools: [lookup(under)] });
        const result = await runner.run(agent, 'where is B2?', { stream: true });
        for await (const _ of result) {
          // drain
        }
        await result.completed;
      },
      useResponses,
    );
  });

  it('an agent as a tool', async () => {
    await sameOnTheWire(
      [fakeToolCalls([{ name: 'translate', arguments: { input: 'bonjour' }, callId: 't1' }]), fakeText('hello'), fakeText('It means hello.')],
      async ({ sdk }, runner) => {
        const translator = new sdk.Agent({ name: 'Translator', instructions: 'Translate to English.', model: 'gpt-4.1' });
        const agent = new sdk.Agent({
          name: 'Main',
          model: 'gpt-4.1',
          tools: [translator.asTool({ toolName: 'translate', toolDescription: 'Translate a text to English.' })],
        });
        await runner.run(agent, 'what does bonjour mean?');
      },
      useResponses,
    );
  });
});

describe.each([true, false])('tool outputs that keep their kind (Responses API: %s)', (useResponses) => {
  it.each([
    ['an image', { type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=' }],
    ['text and an image', [{ type: 'text', text: 'Here is the chart.' }, { type: 'image', image: 'https://example.test/chart.png' }]],
  ])('%s reaches the model as the reference sends it', async (_label, output) => {
    await sameOnTheWire(
      [fakeToolCalls([{ name: 'screenshot', arguments: {}, callId: 's1' }]), fakeText('I see it.')],
      async ({ sdk }, runner) => {
        const screenshot = sdk.tool({ name: 'screenshot', description: 'Take a screenshot', parameters: z.object({}), execute: () => output as never });
        await runner.run(new sdk.Agent({ name: 'Viewer', model: 'gpt-4.1', tools: [screenshot] }), 'look');
      },
      useResponses,
    );
  });
});
