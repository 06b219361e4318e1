import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeOpenAIServer, fakeText } from '@baton/testing';
import { onBoth, outcomeOf } from './sdks.js';

// A caller's abort while the model call is in flight: the run rejects with the model's own abort
// error (as the reference does), not a bare DOMException.

describe('aborting a run (same on both SDKs)', () => {
  it('the run rejects with the error the model call ended with', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const controller = new AbortController();
      const model = new testing.ScriptedModel([
        testing.modelResponder(async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          return [testing.assistantMessage('late')];
        }),
      ]);
      setTimeout(() => controller.abort(), 10);
      const outcome = await outcomeOf(sdk.run(new sdk.Agent({ name: 'A', model }), 'go', { signal: controller.signal }));
      return { name: outcome.ok ? 'ok' : outcome.name, errorName: outcome.ok ? undefined : (outcome.error as Error).name };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({ name: 'ScriptedModelRequestAbortedError', errorName: 'AbortError' });
  });
});

describe('aborting a run while its function tools run (same on both SDKs)', () => {
  it('waits for the calls in flight, starts no queued one, keeps an output per call, and rejects with the reason', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const controller = new AbortController();
      const reason = new Error('stop the tools');
      const started: string[] = [];
      let bothStarted!: () => void;
      const running = new Promise<void>((resolve) => (bothStarted = resolve));
      let releaseSibling!: () => void;
      const siblingRelease = new Promise<void>((resolve) => (releaseSibling = resolve));
      const mark = (name: string) => {
        started.push(name);
        if (started.length === 2) bothStarted();
      };
      const abortable = sdk.tool({
        name: 'abortable',
        description: 'ends with its signal',
        parameters: z.object({}),
        execute: async (_input, _context, details) => {
          mark('abortable');
          const signal = details!.signal!;
          await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
          signal.throwIfAborted();
          return 'unreachable';
        },
      });
      const sibling = sdk.tool({
        name: 'sibling',
        description: 'finishes its work',
        parameters: z.object({}),
        execute: async () => {
          mark('sibling');
          await siblingRelease;
          return 'sibling done';
        },
      });
      const queued = sdk.tool({ name: 'queued', description: 'never starts', parameters: z.object({}), execute: async () => (mark('queued'), 'queued ran') });
      const call = (name: string, callId: string) => ({ type: 'function_call' as const, id: callId, callId, name, arguments: '{}', status: 'completed' as const });
      const model = new testing.ScriptedModel([[call('abortable', 'a'), call('sibling', 's'), call('queued', 'q')], [testing.assistantMessage('never asked')]] as never);
      const agent = new sdk.Agent({ name: 'A', model, tools: [abortable, sibling, queued] });
      const state = new sdk.RunState(new sdk.RunContext(), 'go', agent, 10);
      const runner = new sdk.Runner({ toolExecution: { maxFunctionToolConcurrency: 2 } });
      let settled = false;
      const outcome = runner.run(agent, state, { signal: controller.signal }).then(
        () => ((settled = true), 'resolved'),
        (error: unknown) => ((settled = true), error),
      );
      await running;
      controller.abort(reason);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const settledBeforeSibling = settled;
      releaseSibling();
      const rejectedWithReason = (await outcome) === reason;
      const outputs = state._generatedItems
        .map((item) => item.rawItem as { type: string; callId?: string; status?: string; output?: unknown })
        .filter((raw) => raw.type === 'function_call_result')
        .map((raw) => [raw.callId, raw.status, raw.output]);
      return { started, settledBeforeSibling, rejectedWithReason, outputs, modelCalls: (model as unknown as { calls: unknown[] }).calls?.length };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.settledBeforeSibling).toBe(false);
    expect(both.baton.rejectedWithReason).toBe(true);
    expect(both.baton.started).toEqual(['abortable', 'sibling']);
  });
});

describe('aborting a run on the OpenAI provider (Baton)', () => {
  it('rejects with OpenAIProviderError (reason aborted), an AgentsError like every Baton error', async () => {
    const baton = await import('@baton/agents');
    const server = await FakeOpenAIServer.start({ turns: [{ ...fakeText('slow'), delayMs: 2_000 }] });
    try {
      const provider = new baton.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const error = await new baton.Runner({ modelProvider: provider }).run(new baton.Agent({ name: 'A' }), 'go', { signal: controller.signal }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(baton.OpenAIProviderError);
      expect(error).toBeInstanceOf(baton.AgentsError);
      expect(error).toMatchObject({ reason: 'aborted' });
    } finally {
      await server.close();
    }
  });
});
