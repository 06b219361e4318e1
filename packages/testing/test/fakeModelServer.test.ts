import { describe, expect, it } from 'vitest';
import { FakeModelServer, FakeOpenAIServer, fakeItems, fakeResponder, fakeText, fakeToolCalls, startFakeModelServer, startFakeOpenAIServer } from '../src/index.js';
import { anthropicModel, apiCallError, geminiModel, hello, serve } from './vendorFixtures.js';

describe('FakeModelServer (the same server for OpenAI, Anthropic and Gemini clients)', () => {
  it('is FakeOpenAIServer under a vendor-neutral name, with a base URL per vendor', async () => {
    expect(FakeModelServer).toBe(FakeOpenAIServer);
    const servers = [await startFakeModelServer(), await startFakeOpenAIServer(), await FakeModelServer.start()];
    for (const server of servers) {
      expect(server).toBeInstanceOf(FakeOpenAIServer);
      expect(server.baseURL).toBe(`${server.url}/v1`);
      expect(server.anthropicBaseURL).toBe(`${server.url}/v1`);
      expect(server.googleBaseURL).toBe(`${server.url}/v1beta`);
      await server.close();
    }
  });

  it('answers one script to each vendor in turn, recording which API each request called', async () => {
    const call = fakeToolCalls([{ name: 'weather', arguments: { city: 'Paris' }, callId: 'call_1' }]);
    const server = await serve(call, call, call);
    const openai = (await (await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'gpt-4.1', messages: [] }) })).json()) as any;
    expect(openai.choices[0].message.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }]);
    const expected = [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: '{"city":"Paris"}' }];
    expect((await anthropicModel(server).doGenerate(hello)).content).toEqual(expected);
    expect((await geminiModel(server).doGenerate(hello)).content).toEqual(expected);
    expect(server.requests.map((r) => [r.api, r.model])).toEqual([
      ['openai-chat-completions', 'gpt-4.1'],
      ['anthropic-messages', 'claude-sonnet-4-5'],
      ['gemini-generate-content', 'gemini-2.5-flash'],
    ]);
    server.assertComplete();
  });

  it('gives a responder the path, so one responder can answer per vendor', async () => {
    const byPath = fakeResponder(({ path }) => fakeText(path.includes('gemini') ? 'from gemini' : 'from elsewhere'));
    const server = await serve(byPath, byPath);
    expect((await geminiModel(server).doGenerate(hello)).content).toEqual([{ type: 'text', text: 'from gemini' }]);
    expect((await anthropicModel(server).doGenerate(hello)).content).toEqual([{ type: 'text', text: 'from elsewhere' }]);
  });

  it('reports its own failures in the called API\'s error shape', async () => {
    const server = await serve(fakeItems([{ type: 'web_search_call', id: 'ws_1', status: 'completed' }]));
    const unrenderable = await apiCallError(() => anthropicModel(server).doGenerate(hello));
    expect(unrenderable.statusCode).toBe(500);
    expect(unrenderable.message).toMatch(/Anthropic Messages API has no output items/);
    expect(unrenderable.responseHeaders?.['x-should-retry']).toBe('false');

    const noTurn = await apiCallError(() => geminiModel(server).doGenerate(hello));
    expect(noTurn.statusCode).toBe(400);
    expect(JSON.parse(noTurn.responseBody!)).toEqual({ error: { code: 400, message: expect.stringMatching(/no scripted turn left/), status: 'INVALID_ARGUMENT' } });
  });
});
