import { Agent, Runner, tool } from '@baton/core';
import { OpenAIProvider, webSearchTool } from '@baton/openai-provider';
import { FakeOpenAIServer, fakeText, fakeToolCalls } from '@baton/testing';
import { z } from 'zod';

// Offline: a local OpenAI-compatible server plays the model. Leave baseURL out to talk to OpenAI.
const server = await FakeOpenAIServer.start({
  turns: [fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Lisbon' } }]), fakeText('Lisbon is sunny, 21°C.')],
});
const provider = new OpenAIProvider({ apiKey: 'sk-example', baseURL: server.baseURL }); // useResponses: false for Chat Completions

const getWeather = tool({
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: sunny, 21°C`,
});
const agent = new Agent({
  name: 'Weather',
  model: 'gpt-4.1',
  modelSettings: { temperature: 0.2, timeoutMs: 30_000, retry: { maxRetries: 3 } },
  tools: [getWeather],
});

const result = await new Runner({ modelProvider: provider }).run(agent, 'Weather in Lisbon?');
console.log(result.finalOutput); // Lisbon is sunny, 21°C.
console.log(server.requests.map((r) => r.path).join(' ')); // /v1/responses /v1/responses
await server.close();

// Hosted tools run on OpenAI's side (Responses API).
export const researcher = new Agent({ name: 'Researcher', model: 'gpt-4.1', tools: [webSearchTool()] });
