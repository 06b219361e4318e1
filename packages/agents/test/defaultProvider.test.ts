import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as agents from '../src/index.js';
import { Agent, OpenAIProvider, getDefaultModelProvider, run, setOpenAIAPI, tool } from '../src/index.js';
import { FakeOpenAIServer, fakeText, fakeToolCalls } from '../src/testing.js';
import { z } from 'zod';

// As in the reference, importing @baton/agents makes the OpenAI provider the default, reading the
// environment when the first model is needed: a program written for @openai/agents runs with only
// the import changed.
let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await FakeOpenAIServer.start();
  // Set after the import on purpose: the default provider must read the environment lazily.
  vi.stubEnv('OPENAI_API_KEY', 'sk-from-env');
  vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
  vi.stubEnv('OPENAI_DEFAULT_MODEL', '');
});
afterEach(() => setOpenAIAPI('responses'));
afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

describe('@baton/agents default model provider', () => {
  it('is an OpenAIProvider', () => {
    expect(getDefaultModelProvider()).toBeInstanceOf(OpenAIProvider);
  });

  it.each([
    'OpenAIProvider',
    'OpenAIResponsesModel',
    'OpenAIChatCompletionsModel',
    'OpenAIProviderError',
    'setDefaultOpenAIKey',
    'setDefaultOpenAIClient',
    'setOpenAIAPI',
    'isOpenAIResponsesRawModelStreamEvent',
    'isOpenAIChatCompletionsRawModelStreamEvent',
  ])('exports %s', (name) => {
    expect(agents[name as keyof typeof agents]).toBeDefined();
  });

  it("runs an agent with model 'gpt-4.1' on the Responses API from the environment", async () => {
    const weather = tool({
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => `${city}: sunny`,
    });
    server.enqueue(fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Lisbon' } }]), fakeText('Lisbon is sunny.'));
    const agent = new Agent({ name: 'Weather', instructions: 'Answer with the tool.', model: 'gpt-4.1', tools: [weather] });
    const result = await run(agent, 'Weather in Lisbon?');
    expect(result.finalOutput).toBe('Lisbon is sunny.');
    const [first, second] = server.requests.slice(-2);
    expect(first).toMatchObject({ path: '/v1/responses', body: { model: 'gpt-4.1', instructions: 'Answer with the tool.' } });
    expect(first!.headers.authorization).toBe('Bearer sk-from-env');
    expect(second!.body.input.at(-1)).toEqual({ type: 'function_call_output', call_id: expect.any(String), output: 'Lisbon: sunny', status: 'completed' });
  });

  it('gives an agent without a model the default model, and follows setOpenAIAPI', async () => {
    setOpenAIAPI('chat_completions');
    server.enqueue(fakeText('hello'));
    const result = await run(new Agent({ name: 'Plain' }), 'hi');
    expect(result.finalOutput).toBe('hello');
    expect(server.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', body: { model: agents.DEFAULT_OPENAI_MODEL } });
  });
});
