import { describe, expect, it } from 'vitest';
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { Agent, run } from '@baton/core';
import { ModelRefusalError, Usage } from '@baton/types';
import { z } from 'zod';
import { aisdk, AiSdkProviderError } from '../src/index.js';
import { rejectionOf, request, usage, v3Generate, v3Model, v4Generate, v4Model } from './helpers.js';

const STAMP = { model: 'fake.chat:fake-model', responseId: 'resp_1' };
const RESPONSE = { id: 'resp_1', headers: { 'x-request-id': 'req_42' } };

describe('response mapping', () => {
  it('text becomes an assistant message; response id, request id and usage (cached and reasoning tokens) are read', async () => {
    const model = v4Model([
      v4Generate([{ type: 'text', text: 'Hello' }], {
        response: RESPONSE,
        usage: usage(100, 40, { cacheRead: 60, cacheWrite: 5, reasoning: 12 }),
        providerMetadata: { fake: { served: 'x' } },
        warnings: [{ type: 'unsupported', feature: 'topK' }],
      }),
    ]);
    const response = await aisdk(model).getResponse(request());
    // The response's provider metadata is stamped on its text message, as in the reference.
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello' }], providerData: { ...STAMP, fake: { served: 'x' } } }]);
    expect(response.responseId).toBe('resp_1');
    expect(response.requestId).toBe('req_42');
    expect(response.usage).toBeInstanceOf(Usage);
    expect(response.usage).toMatchObject({
      requests: 1,
      inputTokens: 100,
      outputTokens: 40,
      totalTokens: 140,
      inputTokensDetails: [{ cached_tokens: 60, cache_write_tokens: 5 }],
      outputTokensDetails: [{ reasoning_tokens: 12 }],
    });
    expect(response.providerData).toEqual({
      model: 'fake.chat:fake-model',
      finishReason: 'stop',
      rawFinishReason: 'stop',
      providerMetadata: { fake: { served: 'x' } },
      warnings: [{ type: 'unsupported', feature: 'topK' }],
    });
  });

  it('keeps the model order: reasoning, text, tool calls (provider call id, arguments exactly as sent), more text', async () => {
    const model = v4Model([
      v4Generate(
        [
          { type: 'reasoning', text: 'Let me think.', providerMetadata: { anthropic: { signature: 'sig-1' } } },
          { type: 'text', text: 'Checking ' },
          { type: 'text', text: 'now.', providerMetadata: { google: { thoughtSignature: 'ts-text' } } },
          { type: 'tool-call', toolCallId: 'toolu_01', toolName: 'get_weather', input: '{"city":"Lisbon"}', providerMetadata: { google: { thoughtSignature: 'ts-call' } } },
          { type: 'tool-call', toolCallId: 'toolu_02', toolName: 'get_weather', input: '{"city": Porto' },
          { type: 'text', text: 'Done.' },
        ],
        { response: RESPONSE, finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
      ),
    ]);
    const { output } = await aisdk(model).getResponse(request());
    expect(output).toEqual([
      { type: 'reasoning', content: [{ type: 'input_text', text: 'Let me think.' }], rawContent: [{ type: 'reasoning_text', text: 'Let me think.' }], providerData: { ...STAMP, anthropic: { signature: 'sig-1' } } },
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [
          { type: 'output_text', text: 'Checking ' },
          { type: 'output_text', text: 'now.', providerData: { google: { thoughtSignature: 'ts-text' } } },
        ],
        providerData: STAMP,
      },
      { type: 'function_call', callId: 'toolu_01', name: 'get_weather', arguments: '{"city":"Lisbon"}', status: 'completed', providerData: { ...STAMP, google: { thoughtSignature: 'ts-call' } } },
      { type: 'function_call', callId: 'toolu_02', name: 'get_weather', arguments: '{"city": Porto', status: 'completed', providerData: STAMP },
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.' }], providerData: STAMP },
    ]);
  });

  it('keeps reasoning with only metadata (redacted thinking) and drops empty reasoning without any', async () => {
    const model = v4Model([
      v4Generate([
        { type: 'reasoning', text: '', providerMetadata: { anthropic: { redactedData: 'opaque' } } },
        { type: 'reasoning', text: '' },
        { type: 'text', text: 'Hi' },
      ]),
    ]);
    const { output } = await aisdk(model).getResponse(request());
    expect(output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(output[0]?.providerData).toMatchObject({ anthropic: { redactedData: 'opaque' } });
  });

  it('a response stopped at the token limit with no output is an AiSdkProviderError (response_incomplete)', async () => {
    const model = v4Model([v4Generate([{ type: 'reasoning', text: 'long thought' }], { finishReason: { unified: 'length', raw: 'max_tokens' } })]);
    const error = await rejectionOf(aisdk(model).getResponse(request()));
    expect(error).toBeInstanceOf(AiSdkProviderError);
    expect(error).toMatchObject({ reason: 'response_incomplete', code: 'max_tokens', retryable: false, _tag: 'AiSdkProviderError' });
  });

  it('a response stopped at the token limit after some text is returned as it is', async () => {
    const model = v4Model([v4Generate([{ type: 'text', text: 'Partial' }], { finishReason: { unified: 'length', raw: 'length' } })]);
    const response = await aisdk(model).getResponse(request());
    expect(response.output).toHaveLength(1);
    expect(response.providerData).toMatchObject({ finishReason: 'length' });
  });

  it("a finish reason 'error' with no output is an AiSdkProviderError (response_failed)", async () => {
    const model = v4Model([v4Generate([], { finishReason: { unified: 'error', raw: 'MALFORMED' } })]);
    expect(await rejectionOf(aisdk(model).getResponse(request()))).toMatchObject({ reason: 'response_failed' });
  });

  it('a content-filter finish makes the answer a refusal: the text written before it, or a sentence of its own (never replayed)', async () => {
    const model = v4Model([
      v4Generate([{ type: 'text', text: 'Partial' }], { finishReason: { unified: 'content-filter', raw: 'SAFETY' } }),
      v4Generate([], { finishReason: { unified: 'content-filter', raw: 'SAFETY' } }),
    ]);
    const first = await aisdk(model).getResponse(request());
    expect(first.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        status: 'incomplete',
        content: [{ type: 'refusal', refusal: 'Partial' }],
        providerData: { model: 'fake.chat:fake-model' },
      },
    ]);
    const second = await aisdk(model).getResponse(request());
    expect(second.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        status: 'incomplete',
        content: [{ type: 'refusal', refusal: "The provider's content filter stopped the response (finish reason 'content-filter' (raw: SAFETY)).", providerData: { aiSdkContentFilter: true } }],
        providerData: { model: 'fake.chat:fake-model' },
      },
    ]);
  });

  it('a content-filter finish is a refusal that ends the run after one call (a structured-output agent fails with ModelRefusalError)', async () => {
    const filtered = () => v4Generate([], { finishReason: { unified: 'content-filter', raw: 'SAFETY' } });
    const structured = new Agent({ name: 'S', model: aisdk(v4Model([filtered()])), outputType: z.object({ city: z.string() }) });
    expect(await rejectionOf(run(structured, 'x'))).toBeInstanceOf(ModelRefusalError);
    // The answer is a refusal in our words; the run does not ask the model again (how a text agent
    // reports a refusal is the run loop's call).
    const { output } = await aisdk(v4Model([filtered()])).getResponse(request());
    expect(output).toMatchObject([{ type: 'message', status: 'incomplete', content: [{ type: 'refusal', refusal: expect.stringMatching(/content filter stopped the response/) }] }]);
    const text = v4Model([filtered()]);
    await run(new Agent({ name: 'T', model: aisdk(text) }), 'x').catch((error: unknown) => expect(error).toBeInstanceOf(ModelRefusalError));
    expect(text.calls).toHaveLength(1);
  });

  it('provider-executed tool calls and their results become hosted_tool_call items', async () => {
    const model = v4Model([
      v4Generate([
        { type: 'tool-call', toolCallId: 'srv_1', toolName: 'web_search', input: '{"query":"baton"}', providerExecuted: true },
        { type: 'tool-result', toolCallId: 'srv_1', toolName: 'web_search', result: [{ url: 'https://example.com' }], providerMetadata: { anthropic: { x: 1 } } },
        { type: 'tool-call', toolCallId: 'srv_2', toolName: 'code', input: '{}', providerExecuted: true },
        { type: 'tool-result', toolCallId: 'srv_2', toolName: 'code', result: { error: 'boom' }, isError: true },
        { type: 'text', text: 'Found it.' },
      ]),
    ]);
    const { output } = await aisdk(model).getResponse(request());
    expect(output.slice(0, 2)).toEqual([
      {
        type: 'hosted_tool_call',
        id: 'srv_1',
        name: 'web_search',
        arguments: '{"query":"baton"}',
        status: 'completed',
        output: '[{"url":"https://example.com"}]',
        providerData: { model: 'fake.chat:fake-model', anthropic: { x: 1 } },
      },
      { type: 'hosted_tool_call', id: 'srv_2', name: 'code', arguments: '{}', status: 'failed', output: '{"error":"boom"}', providerData: { model: 'fake.chat:fake-model' } },
    ]);
  });

  it('files, custom content and approval requests are kept as unknown items; sources go to the response providerData', async () => {
    const source = { type: 'source' as const, sourceType: 'url' as const, id: 's1', url: 'https://example.com', title: 'Example' };
    const model = v4Model([
      v4Generate([
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2, 3]) } },
        { type: 'custom', kind: 'fake.compaction', providerMetadata: { fake: { blob: 'b' } } },
        { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'srv_9' },
        source,
        { type: 'text', text: 'See above.' },
      ]),
    ]);
    const response = await aisdk(model).getResponse(request());
    expect(response.output.slice(0, 3)).toEqual([
      { type: 'unknown', providerData: { model: 'fake.chat:fake-model', aiSdkContent: { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AQID' } } } },
      { type: 'unknown', providerData: { model: 'fake.chat:fake-model', fake: { blob: 'b' }, aiSdkContent: { type: 'custom', kind: 'fake.compaction' } } },
      { type: 'unknown', providerData: { model: 'fake.chat:fake-model', aiSdkContent: { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'srv_9' } } },
    ]);
    expect(response.providerData?.sources).toEqual([source]);
  });

  it('a v3 result: file data as raw bytes, no v4-only fields', async () => {
    const model = v3Model([
      v3Generate([{ type: 'file', mediaType: 'image/png', data: new Uint8Array([255]) }, { type: 'text', text: 'ok' }], {
        usage: usage(7, 3, { cacheRead: 2 }),
        finishReason: { unified: 'stop', raw: undefined },
      }),
    ]);
    const response = await aisdk(model).getResponse(request());
    expect(response.output[0]).toEqual({ type: 'unknown', providerData: { model: 'fake.chat:fake-model', aiSdkContent: { type: 'file', mediaType: 'image/png', data: { type: 'data', data: '/w==' } } } });
    expect(response.usage).toMatchObject({ inputTokens: 7, outputTokens: 3, totalTokens: 10, inputTokensDetails: [{ cached_tokens: 2 }] });
    expect(response.providerData).toEqual({ model: 'fake.chat:fake-model', finishReason: 'stop' });
  });

  it('v4 citations stay on their text part; structuredOutputText is kept in providerData', async () => {
    const citation = { source: { type: 'source' as const, sourceType: 'url' as const, id: 's', url: 'https://example.com' }, citedText: 'x' };
    const model = v4Model([v4Generate([{ type: 'text', text: '{"a":1}', citations: [citation] }], { structuredOutputText: '{"a":1}' })]);
    const response = await aisdk(model).getResponse(request());
    expect(response.output[0]).toMatchObject({ content: [{ type: 'output_text', text: '{"a":1}', providerData: { citations: [citation] } }] });
    expect(response.providerData).toMatchObject({ structuredOutputText: '{"a":1}' });
  });

  it('a doGenerate result without content is an AiSdkProviderError (invalid_response)', async () => {
    const model = v4Model([{ kind: 'generate', result: { nope: true } as unknown as LanguageModelV4GenerateResult }]);
    expect(await rejectionOf(aisdk(model).getResponse(request()))).toMatchObject({ reason: 'invalid_response' });
  });
});
