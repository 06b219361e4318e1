import { describe, expect, it } from 'vitest';
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
