import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { APICallError, InvalidPromptError, JSONParseError, LoadAPIKeyError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { Agent, retryPolicies, run } from '@baton/core';
import { AgentsError, isModelProviderError, type ModelRequest } from '@baton/types';
import { aisdk, AiSdkProviderError, isAiSdkProviderError } from '../src/index.js';
import { rejectionOf, request, v4Generate, v4Model, waitFor, type V4Turn } from './helpers.js';

function apiError(status: number | undefined, options: { headers?: Record<string, string>; body?: string; retryable?: boolean } = {}): APICallError {
  return new APICallError({
    message: status === undefined ? 'Cannot connect to API: connect ECONNREFUSED' : `Status ${status}`,
    url: 'https://api.example.com/v1/chat',
    requestBodyValues: {},
    ...(status === undefined ? {} : { statusCode: status }),
    ...(options.headers ? { responseHeaders: options.headers } : {}),
    ...(options.body ? { responseBody: options.body } : {}),
    ...(options.retryable === undefined ? {} : { isRetryable: options.retryable }),
  });
}

async function failure(turn: V4Turn, overrides: Partial<ModelRequest> = {}): Promise<AiSdkProviderError> {
  const error = await rejectionOf(aisdk(v4Model([turn])).getResponse(request(overrides)));
  expect(error).toBeInstanceOf(AiSdkProviderError);
  return error as AiSdkProviderError;
}

describe('AiSdkProviderError', () => {
  it('an HTTP error keeps status, retryable, Retry-After, request id, body and code', async () => {
    const cause = apiError(429, {
      headers: { 'retry-after': '2', 'x-request-id': 'req_7' },
      body: '{"error":{"message":"Rate limited","type":"rate_limit_error"}}',
    });
    const error = await failure({ kind: 'throw', error: cause });
    expect(error).toMatchObject({
      _tag: 'AiSdkProviderError',
      name: 'AiSdkProviderError',
      reason: 'http',
      status: 429,
      retryable: true,
      retryAfterMs: 2000,
      requestId: 'req_7',
      code: 'rate_limit_error',
      body: { error: { message: 'Rate limited', type: 'rate_limit_error' } },
      provider: 'fake.chat',
      modelId: 'fake-model',
    });
    expect(error.cause).toBe(cause);
    // The AI SDK error's own message and fields stay readable, as code written for the reference reads them.
    expect(error.message).toBe('Status 429');
    expect(APICallError.isInstance(error)).toBe(true);
    expect([error.statusCode, error.responseBody, error.isRetryable]).toEqual([429, cause.responseBody, true]);
    expect(error).toBeInstanceOf(AgentsError);
    expect(isModelProviderError(error)).toBe(true);
    expect(isAiSdkProviderError(error, 'http')).toBe(true);
    expect(isAiSdkProviderError(error, 'aborted')).toBe(false);
  });

  it.each([
    ['retry-after-ms wins over retry-after', { 'retry-after-ms': '150', 'retry-after': '9' }, 150],
    ['retry-after as an HTTP date', { 'retry-after': new Date(Date.now() + 60_000).toUTCString() }, expect.any(Number)],
    ['no header', {}, undefined],
  ])('%s', async (_name, headers, expected) => {
    const error = await failure({ kind: 'throw', error: apiError(503, { headers }) });
    expect(error.retryAfterMs).toEqual(expected);
    if (typeof error.retryAfterMs === 'number' && _name.includes('date')) expect(error.retryAfterMs).toBeGreaterThan(50_000);
  });

  it('a non-retryable status (the AI SDK says no) is not retryable', async () => {
    const error = await failure({ kind: 'throw', error: apiError(400, { body: 'bad request' }) });
    expect(error).toMatchObject({ reason: 'http', status: 400, retryable: false, body: 'bad request' });
  });

  it('a connection failure (APICallError without status, or a raw fetch failure) is connection, retryable', async () => {
    expect(await failure({ kind: 'throw', error: apiError(undefined, { retryable: true }) })).toMatchObject({ reason: 'connection', retryable: true, status: undefined });
    const fetchFailed = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(await failure({ kind: 'throw', error: fetchFailed })).toMatchObject({ reason: 'connection', retryable: true });
  });

  it.each([
    ['InvalidPromptError', new InvalidPromptError({ prompt: [], message: 'bad prompt' }), 'invalid_request'],
    ['UnsupportedFunctionalityError', new UnsupportedFunctionalityError({ functionality: 'pdf input' }), 'invalid_request'],
    ['LoadAPIKeyError', new LoadAPIKeyError({ message: 'no key' }), 'invalid_request'],
    ['JSONParseError', new JSONParseError({ text: '{', cause: new SyntaxError('x') }), 'invalid_response'],
    ['anything else', new RangeError('boom'), 'unknown'],
  ])('%s → %s', async (_name, cause, reason) => {
    const error = await failure({ kind: 'throw', error: cause });
    expect(error).toMatchObject({ reason, retryable: false });
    expect(error.cause).toBe(cause);
  });

  it("recognises errors from another copy of @ai-sdk/provider (a v3 provider's own)", async () => {
    const requireFromV3 = createRequire(createRequire(import.meta.url).resolve('@ai-sdk/anthropic-v3/package.json'));
    const v3Provider = requireFromV3('@ai-sdk/provider') as typeof import('@ai-sdk/provider');
    expect(v3Provider.APICallError).not.toBe(APICallError);
    const cause = new v3Provider.APICallError({ message: 'overloaded', url: 'u', requestBodyValues: {}, statusCode: 529, isRetryable: true });
    expect(await failure({ kind: 'throw', error: cause })).toMatchObject({ reason: 'http', status: 529, retryable: true });
  });
});

describe('abort and timeout', () => {
  it('an already aborted signal fails at once, without calling the model', async () => {
    const model = v4Model([]);
    const error = await rejectionOf(aisdk(model).getResponse(request({ signal: AbortSignal.abort() })));
    expect(error).toMatchObject({ reason: 'aborted' });
    expect(model.calls).toHaveLength(0);
    const streamed = aisdk(model).getStreamedResponse(request({ signal: AbortSignal.abort() }));
    await expect(streamed[Symbol.asyncIterator]().next()).rejects.toMatchObject({ reason: 'aborted' });
    expect(model.calls).toHaveLength(0);
  });

  it('aborting while the model works aborts its abortSignal and is reported as the abort, whatever the model throws', async () => {
    const controller = new AbortController();
    const model = v4Model([
      {
        kind: 'respond',
        respond: () => ({ kind: 'hang' }),
      },
    ]);
    // A model that turns the abort into an HTTP-looking error: still the abort.
    const original = model.doGenerate;
    model.doGenerate = async (options) => {
      try {
        return await original(options);
      } catch {
        throw apiError(500, { retryable: true });
      }
    };
    const pending = aisdk(model).getResponse(request({ signal: controller.signal }));
    await waitFor(() => model.calls.length === 1);
    controller.abort();
    const error = await rejectionOf(pending);
    expect(error).toMatchObject({ reason: 'aborted', status: undefined });
    expect(model.calls[0]?.abortSignal?.aborted).toBe(true);
  });

  it('a model that ignores its abortSignal still cannot hold the call', async () => {
    const controller = new AbortController();
    const model = v4Model([]);
    model.doGenerate = () => new Promise(() => {});
    const pending = aisdk(model).getResponse(request({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);
    expect(await rejectionOf(pending)).toMatchObject({ reason: 'aborted' });
  });

  it('modelSettings.timeoutMs aborts a slow call with a retryable timeout', async () => {
    const model = v4Model([{ kind: 'hang' }]);
    const error = await rejectionOf(aisdk(model).getResponse(request({ modelSettings: { timeoutMs: 30 } })));
    expect(error).toMatchObject({ reason: 'timeout', retryable: true });
    expect(model.calls[0]?.abortSignal?.aborted).toBe(true);
  });
});

describe('getRetryAdvice and retryPolicies.providerSuggested()', () => {
  const advise = (error: unknown) => aisdk(v4Model([])).getRetryAdvice({ request: request(), error, stream: false, attempt: 1 });

  it('advises from the AI SDK verdict', async () => {
    expect(advise(await failure({ kind: 'throw', error: apiError(429, { headers: { 'retry-after-ms': '20' } }) }))).toMatchObject({
      suggested: true,
      retryAfterMs: 20,
      normalized: { statusCode: 429, retryAfterMs: 20, isNetworkError: false, isAbort: false },
    });
    expect(advise(await failure({ kind: 'throw', error: apiError(400) }))).toMatchObject({ suggested: false, normalized: { statusCode: 400 } });
    expect(advise(await failure({ kind: 'throw', error: apiError(undefined, { retryable: true }) }))).toMatchObject({ suggested: true, normalized: { isNetworkError: true } });
    expect(advise(await failure({ kind: 'hang' }, { modelSettings: { timeoutMs: 10 } }))).toMatchObject({ suggested: false, replaySafety: 'unsafe' });
    expect(advise(await failure({ kind: 'hang' }, { signal: AbortSignal.timeout(10) }))).toMatchObject({ suggested: false, normalized: { isAbort: true } });
    expect(advise(new Error('not ours'))).toBeUndefined();
  });

  it('a run retries a 429 after its Retry-After and succeeds; a 400 is not retried', async () => {
    const model = v4Model([{ kind: 'throw', error: apiError(429, { headers: { 'retry-after-ms': '10' } }) }, v4Generate([{ type: 'text', text: 'ok' }])]);
    const retry = { maxRetries: 2, policy: retryPolicies.providerSuggested() };
    const agent = new Agent({ name: 'A', model: aisdk(model), modelSettings: { retry } });
    expect((await run(agent, 'hi')).finalOutput).toBe('ok');
    expect(model.calls).toHaveLength(2);

    const strict = v4Model([{ kind: 'throw', error: apiError(400) }, v4Generate([{ type: 'text', text: 'never' }])]);
    const error = await rejectionOf(run(new Agent({ name: 'B', model: aisdk(strict), modelSettings: { retry } }), 'hi'));
    expect(error).toMatchObject({ reason: 'http', status: 400 });
    expect(strict.calls).toHaveLength(1);
  });
});
