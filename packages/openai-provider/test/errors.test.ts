import { describe, expect, it } from 'vitest';
import { fakeError, fakeText, type FakeTurn } from '@baton/testing';
import { OpenAIProviderError } from '../src/index.js';
import { APIS, collectUntilError, fakeServer, modelFor, rawTypes, rejectionOf, request } from './helpers.js';

const noRetry = { retry: { maxRetries: 0 } };

const httpCases: Array<[string, FakeTurn, Record<string, unknown>]> = [
  ['401', fakeError(401, { error: { message: 'Incorrect API key', type: 'invalid_request_error', code: 'invalid_api_key', param: null } }), { status: 401, code: 'invalid_api_key', type: 'invalid_request_error', retryable: false }],
  ['404', fakeError(404, { error: { message: 'The model does not exist', type: 'invalid_request_error', code: 'model_not_found', param: 'model' } }), { status: 404, code: 'model_not_found', param: 'model', retryable: false }],
  ['429', fakeError(429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded', param: null } }), { status: 429, code: 'rate_limit_exceeded', retryable: true }],
  ['500', fakeError(500), { status: 500, code: 'fake_500', retryable: true }],
  ['502 with an HTML body', fakeError(502, '<html>Bad gateway</html>', { contentType: 'text/html' }), { status: 502, code: undefined, retryable: true }],
];

describe.each(APIS)('%s errors', (api) => {
  it.each(httpCases)('HTTP %s is an OpenAIProviderError with status, code and request id', async (_label, turn, expected) => {
    const server = await fakeServer(turn);
    const error = await rejectionOf(modelFor(server, api).getResponse(request({ modelSettings: noRetry })));
    expect(error).toBeInstanceOf(OpenAIProviderError);
    expect(error).toMatchObject({ name: 'OpenAIProviderError', reason: 'http', api, requestId: 'req_fake_1', attempts: 1, ...expected });
    expect(server.requests).toHaveLength(1);
  });

  it.each(httpCases)('HTTP %s before a stream starts is thrown by the stream', async (_label, turn, expected) => {
    const server = await fakeServer(turn);
    const { events, error } = await collectUntilError(modelFor(server, api).getStreamedResponse(request({ modelSettings: noRetry })));
    expect(events).toEqual([]);
    expect(error).toMatchObject({ reason: 'http', requestId: 'req_fake_1', ...expected });
  });

  it('keeps a body that is not JSON in the message', async () => {
    const server = await fakeServer(fakeError(503, 'upstream connect error', { contentType: 'text/plain' }));
    const error = await rejectionOf(modelFor(server, api).getResponse(request({ modelSettings: noRetry })));
    expect((error as Error).message).toContain('503');
    expect((error as Error).message).toContain('upstream connect error');
  });

  it('a request slower than timeoutMs is a timeout error and its connection is closed', async () => {
    const server = await fakeServer(fakeText('late', { delayMs: 2_000 }));
    const started = Date.now();
    const error = await rejectionOf(modelFor(server, api).getResponse(request({ modelSettings: { timeoutMs: 100, ...noRetry } })));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(error).toMatchObject({ reason: 'timeout', retryable: true, api });
    expect((error as Error).message).toMatch(/timed out after 100ms/);
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });

  it('a stream that goes quiet for longer than timeoutMs is a timeout error and its connection is closed', async () => {
    const server = await fakeServer(fakeText('Hello world', { stream: { hangAfterEvents: 3 } }));
    const { events, error } = await collectUntilError(modelFor(server, api).getStreamedResponse(request({ modelSettings: { timeoutMs: 150, ...noRetry } })));
    expect(rawTypes(events)).toHaveLength(3);
    expect(error).toMatchObject({ reason: 'timeout', api });
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });

  it('an unreachable server is a connection error', async () => {
    const server = await fakeServer();
    const model = modelFor(server, api);
    await server.close();
    const error = await rejectionOf(model.getResponse(request({ modelSettings: noRetry })));
    expect(error).toMatchObject({ reason: 'connection', retryable: true, api });
  });
});
