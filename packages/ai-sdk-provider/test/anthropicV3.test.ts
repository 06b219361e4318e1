import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropic } from '@ai-sdk/anthropic-v3';
import { Agent, run, tool } from '@baton/core';
import { FakeOpenAIServer, fakeError, fakeText, fakeToolCalls, type FakeTurn } from '@baton/testing';
import { z } from 'zod';
import { aisdk, AiSdkProviderError } from '../src/index.js';
import { rejectionOf, request } from './helpers.js';

// The v3 path over real HTTP: AI SDK 6's Anthropic provider against the fake server's Anthropic
// Messages route.


const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function modelWith(...turns: FakeTurn[]) {
  const server = await FakeOpenAIServer.start({ turns });
  servers.push(server);
  const languageModel = createAnthropic({ baseURL: server.anthropicBaseURL, apiKey: 'x' })('claude-sonnet-4-5');
  expect(languageModel.specificationVersion).toBe('v3');
  return { server, model: aisdk(languageModel) };
}

const getWeather = tool({
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: sunny`,
});

describe('v3 over HTTP with @ai-sdk/anthropic@3 (AI SDK 6)', () => {
  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'non-streamed'}: the signed thinking block goes back with the tool call on the next request`, async () => {
      const { server, model } = await modelWith(
        { ...fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Lisbon' }, callId: 'toolu_1' }]), output: [{ type: 'reasoning', summary: 'Call the tool.', signature: 'sig-xyz' }, { type: 'function_call', name: 'get_weather', arguments: '{"city":"Lisbon"}', callId: 'toolu_1' }] } as FakeTurn,
        fakeText('Sunny in Lisbon.'),
      );
      const agent = new Agent({ name: 'Weather', model, tools: [getWeather] });
      const result = stream ? await run(agent, 'Weather?', { stream: true }) : await run(agent, 'Weather?');
      if (stream) {
        for await (const _ of result as AsyncIterable<unknown>) void _;
        await (result as { completed: Promise<void> }).completed;
      }
      expect(result.finalOutput).toBe('Sunny in Lisbon.');
      const second = server.requests[1]!.body;
      expect(second.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Call the tool.', signature: 'sig-xyz' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Lisbon' } },
        ],
      });
      expect(second.messages[2]).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Lisbon: sunny' }] });
    });
  }

  it('a 529 overloaded answer is a retryable AiSdkProviderError', async () => {
    const { model } = await modelWith(fakeError(529, undefined, { headers: { 'retry-after': '1' } }));
    const error = await rejectionOf(model.getResponse(request()));
    expect(error).toBeInstanceOf(AiSdkProviderError);
    expect(error).toMatchObject({ reason: 'http', status: 529, retryable: true, retryAfterMs: 1000 });
  });
});
