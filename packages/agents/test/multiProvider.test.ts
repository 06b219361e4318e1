import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent, MultiProvider, MultiProviderMap, OpenAIProvider, Runner } from '../src/index.js';
import { MultiProvider as CoreMultiProvider } from '@baton/core';
import { FakeOpenAIServer, ScriptedModel, assistantMessage, fakeText } from '../src/testing.js';

// The umbrella's MultiProvider has OpenAI built in (the environment's key and base URL), so a
// program registers only its other vendors.
let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await FakeOpenAIServer.start();
  vi.stubEnv('OPENAI_API_KEY', 'sk-from-env');
  vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

describe('MultiProvider from @baton/agents', () => {
  it('resolves bare and openai/ names on OpenAI and other prefixes on their provider', async () => {
    const anthropic = { getModel: (name?: string) => new ScriptedModel([[assistantMessage(`claude says hi (${name})`)]]) };
    const runner = new Runner({ modelProvider: new MultiProvider({ providerMap: { anthropic } }) });
    server.enqueue(fakeText('gpt says hi'), fakeText('gpt mini says hi'));
    expect((await runner.run(new Agent({ name: 'A', model: 'gpt-4.1' }), 'hi')).finalOutput).toBe('gpt says hi');
    expect((await runner.run(new Agent({ name: 'B', model: 'openai/gpt-4.1-mini' }), 'hi')).finalOutput).toBe('gpt mini says hi');
    expect((await runner.run(new Agent({ name: 'C', model: 'anthropic/claude-sonnet-4-5' }), 'hi')).finalOutput).toBe('claude says hi (claude-sonnet-4-5)');
    expect(server.requests.map((request) => request.body.model)).toEqual(['gpt-4.1', 'gpt-4.1-mini']);
  });

  it('keeps an openai provider the program registered, and is core’s MultiProvider', () => {
    const own = new OpenAIProvider({ apiKey: 'sk-own' });
    const provider = new MultiProvider({ providerMap: new MultiProviderMap({ openai: own }) });
    expect(provider.providerMap.getProvider('openai')).toBe(own);
    expect(provider).toBeInstanceOf(CoreMultiProvider);
    expect(new MultiProvider().providerMap.getProvider('openai')).toBeInstanceOf(OpenAIProvider);
  });
});
