import { describe, expect, it } from 'vitest';
import { fakeText, fakeToolCalls } from '@baton/testing';
import { isOpenAIProviderError, OpenAIProvider, OpenAIResponsesModel, OpenAIResponsesWSModel, setOpenAIResponsesTransport } from '../src/index.js';
import { resetOpenAIDefaults } from '../src/defaults.js';
import { clientFor, collect, collectUntilError, fakeServer, rawTypes, rejectionOf, request } from './helpers.js';

/** Waits (up to a second) for the server to see every socket closed; fails otherwise. */
async function noSocketsLeft(server: { openSockets: number }): Promise<void> {
  for (let i = 0; i < 100 && server.openSockets > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(server.openSockets).toBe(0);
}

describe('OpenAIResponsesWSModel (the Responses API over a WebSocket)', () => {
  it('sends each turn as a response.create frame on one kept socket, with the HTTP request body', async () => {
    const server = await fakeServer(fakeToolCalls([{ name: 'lookup', arguments: { id: 'A1' }, callId: 'c1' }]), fakeText('done'));
    const model = new OpenAIResponsesWSModel(clientFor(server), 'gpt-5.4');
    const http = new OpenAIResponsesModel(clientFor(server), 'gpt-5.4');
    try {
      const first = await model.getResponse(request({ systemInstructions: 'Be brief.', modelSettings: { temperature: 0.1, retry: { maxRetries: 0 } } }));
      expect(first.output).toMatchObject([{ type: 'function_call', name: 'lookup', callId: 'c1' }]);
      const events = await collect(model.getStreamedResponse(request({ input: 'again' })));
      expect(events.at(-2)).toMatchObject({ type: 'response_done', response: { output: [{ type: 'message', content: [{ type: 'output_text', text: 'done' }] }] } });
      expect(rawTypes(events)).toContain('response.output_text.delta');

      const [a, b] = server.requests;
      expect([a?.transport, b?.transport]).toEqual(['websocket', 'websocket']);
      expect(a?.headers.authorization).toBe('Bearer sk-test');
      // The same body HTTP would send, streamed.
      expect(a?.body).toEqual(http._buildResponsesCreateRequest(request({ systemInstructions: 'Be brief.', modelSettings: { temperature: 0.1 } }), true).requestData);
      // One socket for both turns: one upgrade.
      expect(server.upgrades).toBe(1);
    } finally {
      await model.close();
    }
  });

  it('ends a socket that drops mid-response as a typed error and opens a new one for the next turn', async () => {
    const server = await fakeServer(fakeText('a long answer', { stream: { cutAfterEvents: 3 } }), fakeText('fresh'));
    const model = new OpenAIResponsesWSModel(clientFor(server), 'gpt-5.4');
    try {
      const { events, error } = await collectUntilError(model.getStreamedResponse(request()));
      expect(events.length).toBeGreaterThan(0);
      expect(isOpenAIProviderError(error, 'stream_interrupted')).toBe(true);
      expect((error as Error).message).toBe('The Responses websocket closed before the terminal response event.');
      expect((await model.getResponse(request())).output).toMatchObject([{ type: 'message' }]);
      expect(server.upgrades).toBe(2);
    } finally {
      await model.close();
    }
    await noSocketsLeft(server);
  });

  it('closes the socket when the request is aborted, and when reuse is off', async () => {
    const server = await fakeServer(fakeText('slow answer', { stream: { eventDelayMs: 200 } }), fakeText('one'), fakeText('two'));
    const model = new OpenAIResponsesWSModel(clientFor(server), 'gpt-5.4');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(isOpenAIProviderError(await rejectionOf(model.getResponse(request({ signal: controller.signal }))), 'aborted')).toBe(true);
    await noSocketsLeft(server);

    const once = new OpenAIResponsesWSModel(clientFor(server), 'gpt-5.4', { reuseConnection: false });
    await once.getResponse(request());
    await once.getResponse(request());
    await noSocketsLeft(server);
  });

  it('times out between two events after modelSettings.timeoutMs, closing the socket', async () => {
    const server = await fakeServer(fakeText('slow answer', { stream: { eventDelayMs: 400 } }));
    const model = new OpenAIResponsesWSModel(clientFor(server), 'gpt-5.4');
    const error = await rejectionOf(model.getResponse(request({ modelSettings: { timeoutMs: 100, retry: { maxRetries: 0 } } })));
    expect(isOpenAIProviderError(error, 'timeout')).toBe(true);
    expect((error as Error).message).toBe('No Responses websocket event within 100ms.');
    await noSocketsLeft(server);
  });

  it('retries opening a socket that cannot connect (nothing was sent), then fails as a connection error', async () => {
    const server = await fakeServer();
    const client = clientFor(server);
    await server.close();
    const model = new OpenAIResponsesWSModel(client, 'gpt-5.4');
    const error = await rejectionOf(model.getResponse(request({ modelSettings: { retry: { maxRetries: 1, backoff: { initialDelayMs: 1, maxDelayMs: 1, jitter: false } } } })));
    expect(isOpenAIProviderError(error, 'connection')).toBe(true);
    expect((error as { attempts?: number }).attempts).toBe(2);
  });

  it('is what the provider makes with useResponsesWebSocket or the websocket transport, cached per name and closed with the provider', async () => {
    const server = await fakeServer(fakeText('hi'));
    const provider = new OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponsesWebSocket: true });
    const model = provider.getModel('gpt-5.4');
    expect(model).toBeInstanceOf(OpenAIResponsesWSModel);
    expect(provider.getModel('gpt-5.4')).toBe(model);
    await model.getResponse(request());
    expect(server.openSockets).toBe(1);
    await provider.close();
    await noSocketsLeft(server);

    const uncached = new OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponsesWebSocket: true, cacheResponsesWebSocketModels: false });
    expect(uncached.getModel('m')).not.toBe(uncached.getModel('m'));
    try {
      setOpenAIResponsesTransport('websocket');
      expect(new OpenAIProvider({ apiKey: 'sk-test' }).getModel('m')).toBeInstanceOf(OpenAIResponsesWSModel);
      expect(new OpenAIProvider({ apiKey: 'sk-test', useResponses: false }).getModel('m')).not.toBeInstanceOf(OpenAIResponsesModel);
    } finally {
      resetOpenAIDefaults();
    }
    expect(() => setOpenAIResponsesTransport('carrier-pigeon' as 'http')).toThrow("expected 'http' or 'websocket'");
  });
});
