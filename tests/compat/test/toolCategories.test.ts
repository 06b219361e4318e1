import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeOpenAIServer, fakeItems, fakeText, type FakeTurn } from '@baton/testing';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// A response with function calls and a computer call: both SDKs run the computer beside the
// function tools, and a failing function tool stops the computer before its action, the run
// failing with the tool's error only once everything started has settled.

async function withServer<T>(turns: FakeTurn[], program: (server: FakeOpenAIServer) => Promise<T>): Promise<T> {
  const server = await FakeOpenAIServer.start({ turns });
  try {
    return await program(server);
  } finally {
    await server.close();
  }
}

function runner(under: SdkUnderTest, server: FakeOpenAIServer) {
  const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
  return new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
}

const functionCallItem = { id: 'fc_1', type: 'function_call', call_id: 'call_fn', name: 'wait_for_screen', arguments: '{}', status: 'completed' };
const computerCall = {
  id: 'cu_1',
  type: 'computer_call',
  call_id: 'call_cu',
  status: 'completed',
  action: { type: 'click', x: 1, y: 2, button: 'left' },
  pending_safety_checks: [{ id: 'sc_1', code: 'malicious_instructions' }],
};

function computerOf(log: string[]) {
  return {
    environment: 'browser' as const,
    dimensions: [800, 600] as [number, number],
    screenshot: async () => (log.push('screenshot'), 'iVBORw0KGgo='),
    click: async () => void log.push('click'),
    doubleClick: async () => {},
    scroll: async () => {},
    type: async () => {},
    wait: async () => {},
    move: async () => {},
    keypress: async () => {},
    drag: async () => {},
  };
}

describe('function tools and the computer in one response (same on both SDKs)', () => {
  it('the computer call runs while a function tool still waits', async () => {
    const both = await onBoth((under) =>
      withServer([fakeItems([functionCallItem, computerCall]), fakeText('done')], async (server) => {
        const log: string[] = [];
        let checked!: () => void;
        const checkedPromise = new Promise<void>((resolve) => (checked = resolve));
        const waiting = under.sdk.tool({
          name: 'wait_for_screen',
          description: 'waits until the computer call is checked',
          parameters: z.object({}),
          execute: async () => (await checkedPromise, log.push('function done'), 'seen'),
        });
        const computer = under.sdk.computerTool({ computer: computerOf(log), onSafetyCheck: async () => (log.push('checked'), checked(), true) } as never);
        const agent = new under.sdk.Agent({ name: 'Both', model: 'computer-use-preview', tools: [waiting, computer] });
        const done = await runner(under, server).run(agent, 'go');
        return { log, finalOutput: done.finalOutput, items: done.newItems.map((item: any) => item.rawItem.type ?? item.type) };
      }),
    );
    expect(both.baton.log).toEqual(both.reference.log);
    expect(both.baton.finalOutput).toBe('done');
    expect(both.baton.items).toEqual(both.reference.items);
  });

  it('a failing function tool stops the computer before its action; the run fails with the tool error', async () => {
    const both = await onBoth((under) =>
      withServer([fakeItems([functionCallItem, computerCall])], async (server) => {
        const log: string[] = [];
        let checking!: () => void;
        const checkingPromise = new Promise<void>((resolve) => (checking = resolve));
        const failing = under.sdk.tool({
          name: 'wait_for_screen',
          description: 'fails once the computer is being checked',
          parameters: z.object({}),
          errorFunction: null,
          execute: async () => {
            await checkingPromise;
            throw new Error('function failed');
          },
        } as never);
        const computer = under.sdk.computerTool({
          computer: computerOf(log),
          onSafetyCheck: async () => (checking(), await new Promise((resolve) => setTimeout(resolve, 20)), log.push('check done'), true),
        } as never);
        const agent = new under.sdk.Agent({ name: 'Both', model: 'computer-use-preview', tools: [failing, computer] });
        const outcome = await outcomeOf(runner(under, server).run(agent, 'go'));
        return { log, ok: outcome.ok, name: outcome.ok ? undefined : outcome.name, cause: outcome.ok ? undefined : ((outcome.error as { error?: Error }).error?.message ?? null) };
      }),
    );
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.log).toEqual(['check done']); // settled before the run ended; no click, no screenshot
    expect(both.baton.cause).toBe('function failed');
  });
});
