import { describe, expect, it } from 'vitest';
import { fakeError, fakeText } from '@baton/testing';
import { UserError, type ModelSettings } from '@baton/types';
import { APIS, collect, collectUntilError, fakeServer, modelFor, rejectionOf, request } from './helpers.js';

const fast = (maxRetries = 2): ModelSettings => ({ retry: { maxRetries, backoff: { initialDelayMs: 10, jitter: false } } });

describe.each(APIS)('%s retries', (api) => {
  it('retries a 429 and returns the next answer', async () => {
    const server = await fakeServer(fakeError(429), fakeText('finally'));
    const response = await modelFor(server, api).getResponse(request({ modelSettings: fast() }));
    expect(response.output[0]).toMatchObject({ content: [{ text: 'finally' }] });
    expect(response.requestId).toBe('req_fake_2');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
  });

  it('retries a 429 before a stream starts, then streams', async () => {
    const server = await fakeServer(fakeError(429), fakeText('streamed'));
    const events = await collect(modelFor(server, api).getStreamedResponse(request({ modelSettings: fast() })));
    expect(events.find((e) => e.type === 'response_done')).toMatchObject({ response: { requestId: 'req_fake_2' } });
    expect(server.requests).toHaveLength(2);
  });

  it('retries with the default policy when modelSettings.retry is not set', async () => {
    const server = await fakeServer(fakeError(500), fakeText('ok'));
    await modelFor(server, api).getResponse(request({ modelSettings: {} }));
    expect(server.requests).toHaveLength(2);
  });

  it('waits as long as Retry-After says (seconds)', async () => {
    const server = await fakeServer(fakeError(429, undefined, { headers: { 'retry-after': '1' } }), fakeText('ok'));
    const started = Date.now();
    await modelFor(server, api).getResponse(request({ modelSettings: fast() }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('waits as long as retry-after-ms says, instead of the backoff', async () => {
    const server = await fakeServer(fakeError(503, undefined, { headers: { 'retry-after-ms': '300' } }), fakeText('ok'));
    const started = Date.now();
    await modelFor(server, api).getResponse(request({ modelSettings: { retry: { maxRetries: 1, backoff: { initialDelayMs: 5_000, maxDelayMs: 5_000 } } } }));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(3_000);
  });

  it('backs off exponentially and gives up after maxRetries with the attempt count', async () => {
    const server = await fakeServer(fakeError(503), fakeError(503), fakeError(503), fakeText('never'));
    const started = Date.now();
    const error = await rejectionOf(
      modelFor(server, api).getResponse(request({ modelSettings: { retry: { maxRetries: 2, backoff: { initialDelayMs: 100, multiplier: 3, jitter: false } } } })),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(390); // 100 + 300
    expect(error).toMatchObject({ reason: 'http', status: 503, attempts: 3, requestId: 'req_fake_3' });
    expect(server.requests).toHaveLength(3);
    expect(server.remainingTurns).toBe(1);
  });

  it('caps each wait at maxDelayMs', async () => {
    const server = await fakeServer(fakeError(500), fakeError(500), fakeText('ok'));
    const started = Date.now();
    await modelFor(server, api).getResponse(request({ modelSettings: { retry: { maxRetries: 2, backoff: { initialDelayMs: 5_000, maxDelayMs: 20, jitter: false } } } }));
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it.each([400, 401, 403, 404, 422])('does not retry HTTP %i', async (status) => {
    const server = await fakeServer(fakeError(status), fakeText('never'));
    await rejectionOf(modelFor(server, api).getResponse(request({ modelSettings: fast() })));
    expect(server.requests).toHaveLength(1);
  });

  it('obeys x-should-retry', async () => {
    const server = await fakeServer(fakeError(500, undefined, { headers: { 'x-should-retry': 'false' } }), fakeError(400, undefined, { headers: { 'x-should-retry': 'true' } }), fakeText('ok'));
    const model = modelFor(server, api);
    expect(await rejectionOf(model.getResponse(request({ modelSettings: fast() })))).toMatchObject({ status: 500, retryable: false });
    await model.getResponse(request({ modelSettings: fast() }));
    expect(server.requests).toHaveLength(3);
  });

  it('retries a timed-out attempt', async () => {
    const server = await fakeServer(fakeText('slow', { delayMs: 1_000 }), fakeText('fast'));
    const response = await modelFor(server, api).getResponse(request({ modelSettings: { timeoutMs: 100, ...fast() } }));
    expect(response.output[0]).toMatchObject({ content: [{ text: 'fast' }] });
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });

  it('never retries a stream that already produced events', async () => {
    const server = await fakeServer(fakeText('Hello world', { stream: { cutAfterEvents: 3 } }), fakeText('never'));
    const { error } = await collectUntilError(modelFor(server, api).getStreamedResponse(request({ modelSettings: fast() })));
    expect(error).toMatchObject({ reason: 'stream_interrupted' });
    expect(server.requests).toHaveLength(1);
  });

  it("turns the openai client's own retries off (one policy)", async () => {
    const server = await fakeServer(fakeError(500), fakeText('never'));
    // clientFor() builds a client with the openai default of 2 retries; the model overrides it per request.
    await rejectionOf(modelFor(server, api).getResponse(request({ modelSettings: { retry: { maxRetries: 0 } } })));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['x-stainless-retry-count']).toBe('0');
  });

  it('an abort during the wait between attempts ends the call at once', async () => {
    const server = await fakeServer(fakeError(429, undefined, { headers: { 'retry-after': '30' } }), fakeText('never'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await rejectionOf(modelFor(server, api).getResponse(request({ modelSettings: fast(), signal: controller.signal })));
    expect(error).toMatchObject({ reason: 'aborted' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('retry and timeout settings', () => {
  it.each([
    [{ retry: { maxRetries: -1 } }, /maxRetries must be a whole number/],
    [{ retry: { maxRetries: 1.5 } }, /maxRetries must be a whole number/],
    [{ retry: { backoff: { initialDelayMs: -5 } } }, /initialDelayMs must be a number >= 0/],
    [{ retry: { backoff: { multiplier: 0.5 } } }, /multiplier must be a number >= 1/],
    [{ timeoutMs: 0 }, /timeoutMs must be/],
    [{ timeoutMs: Number.NaN }, /timeoutMs must be/],
  ] as Array<[ModelSettings, RegExp]>)('rejects %j with a UserError before any request', async (settings, message) => {
    const server = await fakeServer(fakeText('never'));
    const error = await rejectionOf(modelFor(server, 'responses').getResponse(request({ modelSettings: settings })));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(message);
    expect(server.requests).toHaveLength(0);
  });
});
