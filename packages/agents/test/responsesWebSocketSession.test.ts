import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, OpenAIResponsesWSModel, tool, withResponsesWebSocketSession } from '../src/index.js';
import { FakeOpenAIServer, fakeText, fakeToolCalls } from '../src/testing.js';

describe('withResponsesWebSocketSession', () => {
  it('runs an agent over one Responses WebSocket for every turn and closes it afterwards', async () => {
    const server = await FakeOpenAIServer.start({
      turns: [fakeToolCalls([{ name: 'lookup', arguments: { id: 'A1' }, callId: 'c1' }]), fakeText('A1 is delivered.')],
    });
    try {
      const lookup = tool({ name: 'lookup', description: 'Find an order.', parameters: z.object({ id: z.string() }), execute: ({ id }) => `${id}: delivered` });
      const agent = new Agent({ name: 'Orders', model: 'gpt-5.4', tools: [lookup] });
      const output = await withResponsesWebSocketSession(
        async ({ run, provider }) => {
          expect(provider.getModel('gpt-5.4')).toBeInstanceOf(OpenAIResponsesWSModel);
          return (await run(agent, 'Where is A1?')).finalOutput;
        },
        { providerOptions: { apiKey: 'sk-test', baseURL: server.baseURL } },
      );
      expect(output).toBe('A1 is delivered.');
      expect(server.requests.map((request) => request.transport)).toEqual(['websocket', 'websocket']);
      expect(server.upgrades).toBe(1);
      for (let i = 0; i < 100 && server.openSockets > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(server.openSockets).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('throws the callback error after closing', async () => {
    const boom = new Error('boom');
    await expect(withResponsesWebSocketSession(() => Promise.reject(boom), { providerOptions: { apiKey: 'sk-test' } })).rejects.toBe(boom);
  });
});
