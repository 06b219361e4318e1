import { describe, expect, it } from 'vitest';
import { fakeRaw, fakeRefusal, fakeResponse, fakeText, fakeToolCalls } from '@baton/testing';
import { Usage } from '@baton/types';
import { ModelBehaviorError } from '@baton/types';
import { OpenAIProviderError, OpenAIResponseError } from '../src/index.js';
import { fakeServer, modelFor, rejectionOf, request } from './helpers.js';

describe('OpenAIResponsesModel response conversion', () => {
  it('converts reasoning, messages and function calls, with usage including cached and reasoning tokens', async () => {
    const server = await fakeServer(
      fakeResponse(
        [
          { type: 'reasoning', summary: 'plan' },
          { type: 'message', text: 'Looking it up.' },
          { type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}', callId: 'call_1' },
        ],
        { usage: { inputTokens: 100, outputTokens: 20, cachedTokens: 60, reasoningTokens: 12 } },
      ),
    );
    const response = await modelFor(server, 'responses').getResponse(request());
    expect(response.output).toEqual([
      { type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'plan' }] },
      {
        type: 'message',
        id: 'msg_2',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Looking it up.', providerData: { annotations: [], logprobs: [] } }],
        providerData: {},
      },
      { type: 'function_call', id: 'fc_3', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
    ]);
    expect(response.usage).toBeInstanceOf(Usage);
    expect((response.usage as Usage).toJSON()).toEqual({
      requests: 1,
      inputTokens: 100,
      outputTokens: 20,
      totalTokens: 120,
      inputTokensDetails: [{ cached_tokens: 60 }],
      outputTokensDetails: [{ reasoning_tokens: 12 }],
      // The request's own entry names the endpoint, as the reference records it.
      requestUsageEntries: [
        expect.objectContaining({ inputTokens: 100, outputTokens: 20, totalTokens: 120, inputTokensDetails: { cached_tokens: 60 }, endpoint: 'responses.create' }),
      ],
    });
    expect(response.responseId).toMatch(/^resp_/);
    expect(response.requestId).toBe('req_fake_1');
    // providerData is the response object as the API sent it.
    expect(response.providerData).toMatchObject({ id: response.responseId, model: 'gpt-4.1', status: 'completed', output: expect.any(Array), usage: expect.any(Object) });
    expect(response.rawUsage).toBeUndefined();
  });

  it('keeps refusals, and tool arguments that are not JSON exactly as sent', async () => {
    const server = await fakeServer(fakeRefusal('No.'), fakeToolCalls([{ name: 'f', arguments: 'not json {' }]));
    const model = modelFor(server, 'responses');
    const refusal = await model.getResponse(request());
    expect(refusal.output[0]).toMatchObject({ type: 'message', content: [{ type: 'refusal', refusal: 'No.' }] });
    const call = await model.getResponse(request());
    expect(call.output[0]).toMatchObject({ type: 'function_call', name: 'f', arguments: 'not json {' });
  });

  it('passes output items it does not model through as unknown items, and hosted tool calls as hosted_tool_call items', async () => {
    const item = { type: 'custom_tool_call', id: 'cu_1', status: 'completed', call_id: 'c', name: 'grammar', input: 'x' };
    const search = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } };
    const server = await fakeServer(fakeRaw(JSON.stringify({ id: 'resp_1', object: 'response', status: 'completed', output: [item, search], usage: null })));
    const response = await modelFor(server, 'responses').getResponse(request());
    expect(response.output).toEqual([
      { type: 'unknown', id: 'cu_1', providerData: item },
      { type: 'hosted_tool_call', id: 'ws_1', name: 'web_search_call', status: 'completed', providerData: { type: 'web_search_call', id: 'ws_1', action: search.action } },
    ]);
    expect((response.usage as Usage).toJSON()).toMatchObject({ requests: 1, inputTokens: 0, outputTokens: 0 });
  });

  it.each([['failed'], ['incomplete']] as const)('a %s response is a ModelBehaviorError naming only its terminal state, unsafe to replay', async (status) => {
    const server = await fakeServer(fakeText('partial', { status, error: { code: 'rate_limit_exceeded', message: 'secret detail' } }));
    const model = modelFor(server, 'responses');
    const error = await rejectionOf(model.getResponse(request()));
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect(error).toBeInstanceOf(OpenAIResponseError);
    expect(error).toMatchObject({ terminal: `response.${status}`, requestId: 'req_fake_1', api: 'responses', name: 'ModelBehaviorError' });
    expect((error as Error).message).toBe(`OpenAI Responses request ended with unsuccessful terminal state "response.${status}".`);
    // What it cost, for the developer's accounting.
    expect((error as OpenAIResponseError).usage).toMatchObject({ requests: 1, inputTokens: expect.any(Number) });
    expect(model.getRetryAdvice!({ error, request: request(), stream: false, attempt: 1 })).toEqual({
      suggested: false,
      replaySafety: 'unsafe',
      responseStarted: true,
      reason: (error as Error).message,
    });
  });

  it('with preserveRawUsage, returns a detached copy of the usage as sent', async () => {
    const server = await fakeServer(fakeText('hi', { usage: { inputTokens: 3, outputTokens: 2 } }));
    const response = await modelFor(server, 'responses').getResponse(request({ modelSettings: { preserveRawUsage: true } }));
    expect(response.rawUsage).toMatchObject({ input_tokens: 3, output_tokens: 2, total_tokens: 5 });
    expect(response.rawUsage).not.toBe((response.providerData as { usage: unknown }).usage);
  });

  it.each([
    ['a JSON object that is not a response', fakeRaw('{"hello":"world"}')],
    ['an HTML page', fakeRaw('<html>oops</html>', { contentType: 'text/html' })],
    ['a JSON content type with a body that is not JSON', fakeRaw('{"id": ')],
  ])('%s is an invalid_response error, not retried', async (_label, turn) => {
    const server = await fakeServer(turn);
    const error = await rejectionOf(modelFor(server, 'responses').getResponse(request({ modelSettings: {} })));
    expect(error).toBeInstanceOf(OpenAIProviderError);
    expect(error).toMatchObject({ reason: 'invalid_response', retryable: false });
    expect(server.requests).toHaveLength(1);
  });
});
