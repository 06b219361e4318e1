import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf } from './sdks.js';

// The function-tool phase where a program can tell: what a toolErrorFormatter is told, a call whose
// arguments are not JSON, the opt-in pre-approval input
// guardrails, and a failing call cancelling its sibling's signal.

/** The output the model received for a call, read from the next request's input. */
function outputSent(model: { lastCall?: { request: { input: unknown } } }, callId: string): unknown {
  const input = (model.lastCall?.request.input ?? []) as Array<{ type?: string; callId?: string; output?: unknown }>;
  return input.find((item) => item.type === 'function_call_result' && item.callId === callId)?.output;
}

describe('the function-tool phase (same on both SDKs)', () => {
  it('a toolErrorFormatter is told the kind and tool type of a missing tool and of a rejected call', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const seen: unknown[] = [];
      const echo = sdk.tool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), needsApproval: async () => true, execute: ({ text }) => text });
      const model = new testing.ScriptedModel([[testing.functionCall('nowhere', {}, { callId: 'n1' }), testing.functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [testing.assistantMessage('done')]]);
      const agent = new sdk.Agent({ name: 'A', model, tools: [echo] });
      const runner = new sdk.Runner({
        toolNotFoundBehavior: 'return_error_to_model',
        toolErrorFormatter: ({ kind, toolType, toolName, callId, defaultMessage }) => (seen.push({ kind, toolType, toolName, callId, defaultMessage: typeof defaultMessage }), undefined),
      } as never);
      const paused = await runner.run(agent, 'go');
      paused.state.reject(paused.interruptions[0]!);
      await runner.run(agent, paused.state);
      return seen;
    });
    expect(both.reference).toEqual([
      { kind: 'tool_not_found', toolType: 'function', toolName: 'nowhere', callId: 'n1', defaultMessage: 'string' },
      { kind: 'approval_rejected', toolType: 'function', toolName: 'echo', callId: 'c1', defaultMessage: 'string' },
    ]);
    expect(both.baton).toEqual(both.reference);
  });

  it('a call whose arguments are not JSON answers the model without starting the tool', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const ran: unknown[] = [];
      const started: string[] = [];
      const ping = sdk.tool({ name: 'ping', description: '', parameters: z.object({ n: z.number() }), execute: (input) => (ran.push(input), 'pong') });
      const model = new testing.ScriptedModel([[{ ...testing.functionCall('ping', {}, { callId: 'p1' }), arguments: '{"n": ' }], [testing.assistantMessage('done')]]);
      const agent = new sdk.Agent({ name: 'A', model, tools: [ping] });
      agent.on('agent_tool_start', (_context, tool) => started.push(tool.name));
      const result = await sdk.run(agent, 'go');
      const output = outputSent(model as never, 'p1') as { type?: string; text?: string } | string | undefined;
      const text = typeof output === 'string' ? output : output?.text;
      return { finalOutput: result.finalOutput, ran, started, answered: typeof text === 'string' && text.length > 0 && text !== 'pong' };
    });
    expect(both.reference).toEqual({ finalOutput: 'done', ran: [], started: [], answered: true });
    expect(both.baton).toEqual(both.reference);
  });

  it('with preApprovalInputGuardrails, a rejecting tool input guardrail answers the model before a human is asked', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const ran: unknown[] = [];
      const limit = sdk.defineToolInputGuardrail({ name: 'limit', run: async () => sdk.ToolGuardrailFunctionOutputFactory.rejectContent('Too much to pay.') });
      const pay = sdk.tool({ name: 'pay', description: '', parameters: z.object({ amount: z.number() }), needsApproval: async () => true, inputGuardrails: [limit], execute: () => (ran.push(1), 'paid') });
      const outcomes = [];
      for (const preApprovalInputGuardrails of [true, false]) {
        const model = new testing.ScriptedModel([[testing.functionCall('pay', { amount: 900 }, { callId: 'p1' })], [testing.assistantMessage('done')]]);
        const result = await new sdk.Runner({ toolExecution: { preApprovalInputGuardrails } } as never).run(new sdk.Agent({ name: 'A', model, tools: [pay] }), 'go');
        outcomes.push({ interruptions: result.interruptions.length, finalOutput: result.finalOutput ?? null, sent: result.interruptions.length ? null : outputSent(model as never, 'p1') });
      }
      return { outcomes, ran: ran.length };
    });
    expect(both.reference.outcomes[0]).toMatchObject({ interruptions: 0, finalOutput: 'done' });
    expect(both.reference.outcomes[1]).toMatchObject({ interruptions: 1 });
    expect(both.baton).toEqual(both.reference);
  });

  it('a call that fails the run aborts its sibling’s signal, also when the caller passed one', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      let siblingAborted: boolean | undefined;
      const waiter = sdk.tool({
        name: 'waiter',
        description: '',
        parameters: z.object({}),
        execute: (_input, _context, details) =>
          new Promise((resolve) => {
            const timer = setTimeout(() => ((siblingAborted = false), resolve('never stopped')), 2_000);
            details!.signal!.addEventListener('abort', () => (clearTimeout(timer), (siblingAborted = true), resolve('stopped')));
          }),
      });
      const boom = sdk.tool({
        name: 'boom',
        description: '',
        parameters: z.object({}),
        errorFunction: null,
        execute: async () => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          throw new Error('boom');
        },
      });
      const model = new testing.ScriptedModel([[testing.functionCall('waiter', {}, { callId: 'w1' }), testing.functionCall('boom', {}, { callId: 'b1' })], [testing.assistantMessage('done')]]);
      const caller = new AbortController();
      const outcome = await outcomeOf(sdk.run(new sdk.Agent({ name: 'A', model, tools: [waiter, boom] }), 'go', { signal: caller.signal }));
      return { failed: outcome.ok ? 'no' : outcome.name, siblingAborted, callerAborted: caller.signal.aborted };
    });
    expect(both.reference).toEqual({ failed: 'ToolCallError', siblingAborted: true, callerAborted: false });
    expect(both.baton).toEqual(both.reference);
  });
});
