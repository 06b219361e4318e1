import { afterEach, describe, expect, it } from 'vitest';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { Agent, run, tool } from '@baton/core';
import { FakeOpenAIServer, fakeResponse, fakeText, type FakeTurn } from '@baton/testing';
import { z } from 'zod';
import { aisdk } from '../src/index.js';

// Gemini thought signatures over real HTTP: AI SDK 7's Google provider (v4) against the fake
// server's Gemini route.


const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const getWeather = tool({
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: sunny`,
});

describe('v4 over HTTP with @ai-sdk/google', () => {
  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'non-streamed'}: the thought signature goes back on the next request`, async () => {
      const turns: FakeTurn[] = [
        fakeResponse([
          { type: 'reasoning', summary: 'Use the tool.', signature: 'sig-gemini' },
          { type: 'function_call', name: 'get_weather', arguments: '{"city":"Porto"}' },
        ]),
        fakeText('Sunny in Porto.'),
      ];
      const server = await FakeOpenAIServer.start({ turns });
      servers.push(server);
      const languageModel = createGoogleGenerativeAI({ baseURL: server.googleBaseURL, apiKey: 'x' })('gemini-2.5-flash');
      expect(languageModel.specificationVersion).toBe('v4');
      const agent = new Agent({ name: 'Weather', model: aisdk(languageModel), tools: [getWeather] });
      const result = stream ? await run(agent, 'Weather?', { stream: true }) : await run(agent, 'Weather?');
      if (stream) {
        for await (const _ of result as AsyncIterable<unknown>) void _;
        await (result as { completed: Promise<void> }).completed;
      }
      expect(result.finalOutput).toBe('Sunny in Porto.');
      const contents = server.requests[1]!.body.contents as Array<{ role: string; parts: unknown[] }>;
      expect(contents[1]).toMatchObject({ role: 'model', parts: [{ text: 'Use the tool.', thought: true, thoughtSignature: 'sig-gemini' }, { functionCall: { name: 'get_weather', args: { city: 'Porto' } } }] });
    });
  }
});
