import { describe, expect, it } from 'vitest';
import { fakeRaw, fakeRefusal, fakeResponse, fakeText, fakeToolCalls } from '@baton/testing';
import { Usage } from '@baton/types';
import { ModelBehaviorError } from '@baton/types';
import { CHAT_COMPLETIONS_EMPTY_TRUNCATION_ERROR, CONTENT_FILTER_REFUSAL_MESSAGE, OpenAIProviderError, OpenAIResponseError } from '../src/index.js';
import { fakeServer, modelFor, rejectionOf, request } from './helpers.js';

const completion = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  fakeRaw(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm', choices, ...extra }));

describe('OpenAIChatCompletionsModel response conversion', () => {
  it('converts reasoning content, text and tool calls, with usage including cached and reasoning tokens', async () => {
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
    const response = await modelFor(server, 'chat_completions').getResponse(request());
    const id = response.responseId;
    // As the reference: every item carries the completion's id, each content part the rest of the message.
    expect(response.output).toMatchObject([
      { type: 'reasoning', content: [], rawContent: [{ type: 'reasoning_text', text: 'plan' }] },
      { id, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Looking it up.', providerData: { role: 'assistant' } }] },
      { id, type: 'function_call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed', providerData: { type: 'function', function: { name: 'get_weather' } } },
    ]);
    expect((response.usage as Usage).toJSON()).toEqual({
      requests: 1,
      inputTokens: 100,
      outputTokens: 20,
      totalTokens: 120,
      inputTokensDetails: [{ cached_tokens: 60 }],
      outputTokensDetails: [{ reasoning_tokens: 12 }],
    });
    expect(response.responseId).toMatch(/^chatcmpl_/);
    expect(response.requestId).toBe('req_fake_1');
    // providerData is the completion as the server sent it.
    expect(response.providerData).toMatchObject({ id, object: 'chat.completion', model: 'gpt-4.1', choices: [{ finish_reason: 'tool_calls' }] });
  });

  it('keeps refusals, and tool arguments that are not JSON exactly as sent', async () => {
    const server = await fakeServer(fakeRefusal('No.'), fakeToolCalls([{ name: 'f', arguments: 'not json {' }]));
    const model = modelFor(server, 'chat_completions');
    expect((await model.getResponse(request())).output).toMatchObject([
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'No.' }] },
    ]);
    expect((await model.getResponse(request())).output[0]).toMatchObject({ type: 'function_call', name: 'f', arguments: 'not json {' });
  });

  it('gives tool calls without an id one, and drops empty content beside tool calls', async () => {
    const message = { role: 'assistant', content: '', tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] };
    const server = await fakeServer(completion([{ index: 0, message, finish_reason: 'tool_calls' }]));
    const response = await modelFor(server, 'chat_completions').getResponse(request());
    expect(response.output).toHaveLength(1);
    expect(response.output[0]).toMatchObject({ type: 'function_call', name: 'f', callId: expect.stringMatching(/^call_[0-9a-f]{32}$/) });
  });

  it('an empty choice list is an invalid_response error', async () => {
    const server = await fakeServer(completion([]));
    const error = await rejectionOf(modelFor(server, 'chat_completions').getResponse(request()));
    expect(error).toBeInstanceOf(OpenAIProviderError);
    expect(error).toMatchObject({ reason: 'invalid_response', requestId: 'req_fake_1', api: 'chat_completions' });
    expect((error as Error).message).toMatch(/no choices/);
  });

  it("finish_reason 'length' with nothing produced is a ModelBehaviorError; with text it is a normal response", async () => {
    const server = await fakeServer(completion([{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'length' }]), fakeText('cut sho', { status: 'incomplete' }));
    const model = modelFor(server, 'chat_completions');
    const error = await rejectionOf(model.getResponse(request()));
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect(error).toBeInstanceOf(OpenAIResponseError);
    expect(error).toMatchObject({ terminal: 'length', api: 'chat_completions', requestId: 'req_fake_1', message: CHAT_COMPLETIONS_EMPTY_TRUNCATION_ERROR });
    expect(model.getRetryAdvice!({ error, request: request(), stream: false, attempt: 1 })).toMatchObject({ suggested: false, replaySafety: 'unsafe', responseStarted: true });
    const partial = await model.getResponse(request());
    expect(partial.output).toMatchObject([{ type: 'message', content: [{ type: 'output_text', text: 'cut sho' }] }]);
    expect(partial.providerData).toMatchObject({ choices: [{ finish_reason: 'length' }] });
  });

  it("a completion the content filter emptied becomes the reference's refusal; filtered output is kept", async () => {
    const server = await fakeServer(
      completion([{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'content_filter' }]),
      completion([{ index: 0, message: { role: 'assistant', content: 'partial' }, finish_reason: 'content_filter' }]),
    );
    const model = modelFor(server, 'chat_completions');
    expect((await model.getResponse(request())).output).toMatchObject([
      { id: 'chatcmpl-1', type: 'message', content: [{ type: 'refusal', refusal: CONTENT_FILTER_REFUSAL_MESSAGE }] },
    ]);
    expect((await model.getResponse(request())).output).toMatchObject([{ type: 'message', content: [{ type: 'output_text', text: 'partial' }] }]);
  });

  it('with preserveRawUsage, returns a detached copy of the usage as sent', async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, prompt_tokens_details: { cached_tokens: 0, provider_metric: null } };
    const server = await fakeServer(completion([{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], { usage }));
    const response = await modelFor(server, 'chat_completions').getResponse(request({ modelSettings: { preserveRawUsage: true } }));
    expect(response.rawUsage).toEqual(usage);
    expect((response.usage as Usage).inputTokensDetails).toEqual([{ cached_tokens: 0 }]);
  });

  it('a failed turn arrives as an HTTP 500 error', async () => {
    const server = await fakeServer(fakeText('x', { status: 'failed', error: { code: 'server_error', message: 'boom' } }));
    const error = await rejectionOf(modelFor(server, 'chat_completions').getResponse(request()));
    expect(error).toMatchObject({ reason: 'http', status: 500, code: 'server_error', requestId: 'req_fake_1' });
  });
});
