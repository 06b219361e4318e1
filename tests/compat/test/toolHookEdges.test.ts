import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// A function tool's `agent_tool_end` hook on the edges of a call: it gets what the model will see
// (after output guardrails), a tool that fails the run still ends (with the error as its result),
// and a call whose arguments fail the schema ends with the answer the model got. The same program
// on both SDKs; the hook logs are compared.

function hooked(agent: any, log: string[]) {
  agent.on('agent_tool_start', (_context: any, tool: any, details: any) => log.push(`start ${tool.name} ${details.toolCall.callId}`));
  agent.on('agent_tool_end', (_context: any, tool: any, result: unknown, details: any) => log.push(`end ${tool.name} ${JSON.stringify(result)} ${details.toolCall.callId}`));
  return agent;
}

const sentText = (model: any, callId: string) => {
  const input = model.lastCall.request.input as Array<{ type?: string; callId?: string; output?: { text?: string } }>;
  return input.find((item) => item.type === 'function_call_result' && item.callId === callId)?.output?.text;
};

describe('agent_tool_end on the edges of a function tool call (same on both SDKs)', () => {
  it('gets the output an output guardrail replaced, as the model sees it', async () => {
    const both = await onBoth(async ({ sdk, testing }: SdkUnderTest) => {
      const log: string[] = [];
      const redact = sdk.defineToolOutputGuardrail({ name: 'redact', run: async () => sdk.ToolGuardrailFunctionOutputFactory.rejectContent('[redacted]') });
      const echo = sdk.tool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), outputGuardrails: [redact], execute: ({ text }) => `secret ${text}` });
      const model = new testing.ScriptedModel([[testing.functionCall('echo', { text: 'x' }, { callId: 'c1' })], [testing.assistantMessage('done')]]);
      await sdk.run(hooked(new sdk.Agent({ name: 'A', model, tools: [echo] }), log), 'go');
      return log;
    });
    expect(both.reference).toEqual(['start echo c1', 'end echo "[redacted]" c1']);
    expect(both.baton).toEqual(both.reference);
  });

  it('fires with the rejection when a tool input guardrail rejected the call (the tool never ran)', async () => {
    const both = await onBoth(async ({ sdk, testing }: SdkUnderTest) => {
      const log: string[] = [];
      const stop = sdk.defineToolInputGuardrail({ name: 'stop', run: async () => sdk.ToolGuardrailFunctionOutputFactory.rejectContent('not allowed') });
      const echo = sdk.tool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), inputGuardrails: [stop], execute: ({ text }) => (log.push('ran'), text) });
      const model = new testing.ScriptedModel([[testing.functionCall('echo', { text: 'x' }, { callId: 'c1' })], [testing.assistantMessage('done')]]);
      await sdk.run(hooked(new sdk.Agent({ name: 'A', model, tools: [echo] }), log), 'go');
      return { log, sent: sentText(model, 'c1') };
    });
    expect(both.reference).toEqual({ log: ['start echo c1', 'end echo "not allowed" c1'], sent: 'not allowed' });
    expect(both.baton).toEqual(both.reference);
  });

  it('fires with the error when the tool threw with no error function (the run then fails)', async () => {
    const both = await onBoth(async ({ sdk, testing }: SdkUnderTest) => {
      const log: string[] = [];
      const boom = sdk.tool({
        name: 'boom',
        description: '',
        parameters: z.object({}),
        errorFunction: null,
        execute: () => {
          throw new Error('kaput');
        },
      });
      const model = new testing.ScriptedModel([[testing.functionCall('boom', {}, { callId: 'b1' })], [testing.assistantMessage('done')]]);
      const outcome = await outcomeOf(sdk.run(hooked(new sdk.Agent({ name: 'A', model, tools: [boom] }), log), 'go'));
      return { log, ok: outcome.ok };
    });
    expect(both.reference).toEqual({ log: ['start boom b1', 'end boom "Error: kaput" b1'], ok: false });
    expect(both.baton).toEqual(both.reference);
  });

  it('fires with `aborted` for a call a failing sibling cancelled', async () => {
    const both = await onBoth(async ({ sdk, testing }: SdkUnderTest) => {
      const log: string[] = [];
      const waiter = sdk.tool({
        name: 'waiter',
        description: '',
        parameters: z.object({}),
        execute: (_input, _context, details) => new Promise((_resolve, reject) => details!.signal!.addEventListener('abort', () => reject(details!.signal!.reason))),
      });
      const boom = sdk.tool({
        name: 'boom',
        description: '',
        parameters: z.object({}),
        errorFunction: null,
        execute: async () => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          throw new Error('kaput');
        },
      });
      const model = new testing.ScriptedModel([[testing.functionCall('waiter', {}, { callId: 'w1' }), testing.functionCall('boom', {}, { callId: 'b1' })], [testing.assistantMessage('done')]]);
      const outcome = await outcomeOf(sdk.run(hooked(new sdk.Agent({ name: 'A', model, tools: [waiter, boom] }), log), 'go'));
      return { log: [...log].sort(), ok: outcome.ok };
    });
    expect(both.reference.log).toContain('end waiter "aborted" w1');
    expect(both.baton).toEqual(both.reference);
  });

  it('fires with the answer the model got when the arguments fail the schema', async () => {
    const both = await onBoth(async ({ sdk, testing }: SdkUnderTest) => {
      const log: string[] = [];
      const echo = sdk.tool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
      const model = new testing.ScriptedModel([[testing.functionCall('echo', { text: 5 } as never, { callId: 'c1' })], [testing.assistantMessage('done')]]);
      await sdk.run(hooked(new sdk.Agent({ name: 'A', model, tools: [echo] }), log), 'go');
      return { log, sent: sentText(model, 'c1') };
    });
    const answer = 'An error occurred while running the tool. Please try again.';
    expect(both.reference).toEqual({ log: ['start echo c1', `end echo ${JSON.stringify(answer)} c1`], sent: answer });
    expect(both.baton).toEqual(both.reference);
  });
  it.each([
    ['with a reason', () => new Error('user left')],
    ['without a reason', () => undefined],
  ])('fires with what the call threw when the run’s caller cancelled it (%s)', async (_label, reason) => {
    const both = await onBoth(async ({ sdk, testing }: SdkUnderTest) => {
      const log: string[] = [];
      const controller = new AbortController();
      const waiter = sdk.tool({
        name: 'waiter',
        description: '',
        parameters: z.object({}),
        execute: (_input, _context, details) =>
          new Promise((_resolve, reject) => {
            details!.signal!.addEventListener('abort', () => reject(details!.signal!.reason));
            setTimeout(() => controller.abort(reason()), 10);
          }),
      });
      const model = new testing.ScriptedModel([[testing.functionCall('waiter', {}, { callId: 'w1' })], [testing.assistantMessage('done')]]);
      const outcome = await outcomeOf(sdk.run(hooked(new sdk.Agent({ name: 'A', model, tools: [waiter] }), log), 'go', { signal: controller.signal }));
      return { log, ok: outcome.ok };
    });
    expect(both.reference.log[1]).not.toContain('"aborted"');
    expect(both.baton).toEqual(both.reference);
  });

  it('fires with an empty result when an agent tool’s nested run paused, and again when the resumed call ends', async () => {
    const both = await onBoth(async ({ sdk, testing }: SdkUnderTest) => {
      const log: string[] = [];
      const risky = sdk.tool({ name: 'risky', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'risky done' });
      const inner = new sdk.Agent({ name: 'Inner', model: new testing.ScriptedModel([[testing.functionCall('risky', {}, { callId: 'r1' })], [testing.assistantMessage('inner done')]]), tools: [risky] });
      const model = new testing.ScriptedModel([[testing.functionCall('ask', { input: 'x' }, { callId: 'a1' })], [testing.assistantMessage('done')]]);
      const agent = hooked(new sdk.Agent({ name: 'A', model, tools: [inner.asTool({ toolName: 'ask', toolDescription: '' })] }), log);
      const paused = await sdk.run(agent, 'go');
      const atPause = [...log];
      paused.state.approve(paused.interruptions[0]!);
      const resumed = await sdk.run(agent, paused.state);
      return { atPause, log, finalOutput: resumed.finalOutput };
    });
    expect(both.reference.atPause).toEqual(['start ask a1', 'end ask "" a1']);
    expect(both.baton).toEqual(both.reference);
  });
});
