import { describe, expect, it } from 'vitest';
import type { LanguageModelV3StreamPart, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { ModelStreamEvent } from '@baton/types';
import { aisdk, AiSdkProviderError, AISDK_RAW_MODEL_EVENT_SOURCE } from '../src/index.js';
import { collect, collectUntilError, doneOf, request, stream, textStreamParts, usage, v3Model, v4Generate, v4Model, waitFor } from './helpers.js';

function kinds(events: ModelStreamEvent[]): string[] {
  return events.map((event) => (event.type === 'model' ? `model:${(event.event as { type: string }).type}` : event.type));
}

describe('streaming', () => {
  it('yields response_started, every part as a model event (each text delta followed by output_text_delta), then response_done', async () => {
    const model = v4Model([stream(textStreamParts(['Hel', 'lo']), { headers: { 'request-id': 'req_s1' } })]);
    const events = await collect(aisdk(model).getStreamedResponse(request()));
    expect(kinds(events)).toEqual([
      'response_started',
      'model:stream-start',
      'model:response-metadata',
      'model:text-start',
      'model:text-delta',
      'output_text_delta',
      'model:text-delta',
      'output_text_delta',
      'model:text-end',
      'model:finish',
      'response_done',
    ]);
    expect(events.filter((event) => event.type === 'output_text_delta')).toEqual([
      { type: 'output_text_delta', delta: 'Hel', itemId: 't0' },
      { type: 'output_text_delta', delta: 'lo', itemId: 't0' },
    ]);
    expect(events[1]).toEqual({ type: 'model', event: { type: 'stream-start', warnings: [] }, providerData: { rawModelEventSource: AISDK_RAW_MODEL_EVENT_SOURCE } });
    expect(doneOf(events)).toEqual({
      id: 'resp_1',
      requestId: 'req_s1',
      usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      output: [{ type: 'message', id: 't0', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello' }], providerData: { model: 'fake.chat:fake-model', responseId: 'resp_1' } }],
      providerData: { model: 'fake.chat:fake-model', finishReason: 'stop', rawFinishReason: 'stop', modelId: 'fake-model' },
    });
  });

  it('assembles the same items as the non-streamed path (signatures arriving on deltas, tool calls from deltas)', async () => {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'resp_1' },
      { type: 'reasoning-start', id: 'r0' },
      { type: 'reasoning-delta', id: 'r0', delta: 'Let me ' },
      { type: 'reasoning-delta', id: 'r0', delta: 'think.' },
      { type: 'reasoning-delta', id: 'r0', delta: '', providerMetadata: { anthropic: { signature: 'sig-1' } } },
      { type: 'reasoning-end', id: 'r0' },
      { type: 'text-start', id: 't0' },
      { type: 'text-delta', id: 't0', delta: 'Checking.' },
      { type: 'text-end', id: 't0', providerMetadata: { google: { thoughtSignature: 'ts-text' } } },
      { type: 'tool-input-start', id: 'toolu_01', toolName: 'get_weather', providerMetadata: { google: { thoughtSignature: 'ts-call' } } },
      { type: 'tool-input-delta', id: 'toolu_01', delta: '{"city":' },
      { type: 'tool-input-delta', id: 'toolu_01', delta: '"Lisbon"}' },
      { type: 'tool-input-end', id: 'toolu_01' },
      { type: 'tool-call', toolCallId: 'toolu_01', toolName: 'get_weather', input: '{"city":"Lisbon"}' },
      { type: 'tool-input-start', id: 'toolu_02', toolName: 'get_weather' },
      { type: 'tool-input-delta', id: 'toolu_02', delta: '{"city": Porto' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usage(10, 5) },
    ];
    const streamed = doneOf(await collect(aisdk(v4Model([stream(parts)])).getStreamedResponse(request())));
    const generated = await aisdk(
      v4Model([
        v4Generate(
          [
            { type: 'reasoning', text: 'Let me think.', providerMetadata: { anthropic: { signature: 'sig-1' } } },
            { type: 'text', text: 'Checking.', providerMetadata: { google: { thoughtSignature: 'ts-text' } } },
            { type: 'tool-call', toolCallId: 'toolu_01', toolName: 'get_weather', input: '{"city":"Lisbon"}', providerMetadata: { google: { thoughtSignature: 'ts-call' } } },
            { type: 'tool-call', toolCallId: 'toolu_02', toolName: 'get_weather', input: '{"city": Porto' },
          ],
          { response: { id: 'resp_1' }, finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
        ),
      ]),
    ).getResponse(request());
    // The same items; streamed messages and reasoning also carry the id of their (first) part.
    expect(streamed.output).toEqual(generated.output.map((item) => (item.type === 'message' ? { ...item, id: 't0' } : item.type === 'reasoning' ? { ...item, id: 'r0' } : item)));
    expect(streamed.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call', 'function_call']);
  });

  it("the final tool-call part's input wins over the deltas; text-encoded deltas without one are JSON-encoded", async () => {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'tool-input-start', id: 'a', toolName: 'f' },
      { type: 'tool-input-delta', id: 'a', delta: '{"x":1' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'f', input: '{"x":1}' },
      { type: 'tool-input-start', id: 'b', toolName: 'write', inputEncoding: 'text' },
      { type: 'tool-input-delta', id: 'b', delta: 'line "one"' },
      { type: 'tool-call', toolCallId: 'c', toolName: 'g', input: '{}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: usage(1, 1) },
    ];
    const { output } = doneOf(await collect(aisdk(v4Model([stream(parts)])).getStreamedResponse(request())));
    expect(output.map((item) => (item.type === 'function_call' ? [item.callId, item.arguments] : item.type))).toEqual([
      ['a', '{"x":1}'],
      ['b', '"line \\"one\\""'],
      ['c', '{}'],
    ]);
  });

  it('raw chunks (includeRawChunks through providerData) pass through as model events', async () => {
    const model = v4Model([stream([{ type: 'raw', rawValue: { vendor: 'chunk' } }, ...textStreamParts(['x'])])]);
    const events = await collect(aisdk(model).getStreamedResponse(request({ modelSettings: { providerData: { includeRawChunks: true } } })));
    expect(model.calls[0]?.includeRawChunks).toBe(true);
    expect(events[1]).toMatchObject({ type: 'model', event: { type: 'raw', rawValue: { vendor: 'chunk' } } });
  });

  it('an id is made up when the stream sends none', async () => {
    const parts = textStreamParts(['x']).filter((part) => part.type !== 'response-metadata');
    const done = doneOf(await collect(aisdk(v4Model([stream(parts)])).getStreamedResponse(request())));
    expect(done.id).toMatch(/^aisdk_[0-9a-f]{32}$/);
  });

  it('a v3 stream is read the same way', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'hmm' },
      { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 's' } } },
      { type: 'tool-input-start', id: 'call_1', toolName: 'f' },
      { type: 'tool-input-delta', id: 'call_1', delta: '{}' },
      { type: 'tool-input-end', id: 'call_1' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(4, 4, { reasoning: 2 }) },
    ];
    const done = doneOf(await collect(aisdk(v3Model([stream(parts)])).getStreamedResponse(request())));
    expect(done.output).toMatchObject([
      { type: 'reasoning', rawContent: [{ text: 'hmm' }], providerData: { anthropic: { signature: 's' } } },
      { type: 'function_call', callId: 'call_1', name: 'f', arguments: '{}' },
    ]);
    expect(done.usage).toMatchObject({ inputTokens: 4, outputTokens: 4, outputTokensDetails: { reasoning_tokens: 2 } });
  });

  it('the same finish rules as the non-streamed path (length with no output)', async () => {
    const parts = [{ type: 'finish' as const, finishReason: { unified: 'length' as const, raw: 'max_tokens' }, usage: usage(1, 1) }];
    const { events, error } = await collectUntilError(aisdk(v4Model([stream(parts)])).getStreamedResponse(request()));
    expect(kinds(events)).toEqual(['response_started', 'model:finish']);
    expect(error).toMatchObject({ reason: 'response_incomplete' });
  });
});

describe('streaming failures', () => {
  it('an error part is yielded as a model event, then thrown as stream_error; the stream is cancelled', async () => {
    const model = v4Model([
      stream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hi' },
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        { type: 'finish', finishReason: { unified: 'error', raw: undefined }, usage: usage(0, 0) },
      ]),
    ]);
    const { events, error } = await collectUntilError(aisdk(model).getStreamedResponse(request()));
    expect(kinds(events).slice(-2)).toEqual(['output_text_delta', 'model:error']);
    expect(error).toBeInstanceOf(AiSdkProviderError);
    expect(error).toMatchObject({ reason: 'stream_error', code: 'overloaded_error', body: { type: 'overloaded_error', message: 'Overloaded' } });
    expect((error as Error).message).toMatch(/stream sent an error: Overloaded/);
    expect(model.cancelled[0]).toBe(true);
    expect(model.calls[0]?.abortSignal?.aborted).toBe(true);
  });

  it("a provider's stream (opened with stream-start) that ends without its finish part is stream_interrupted", async () => {
    const parts = textStreamParts(['Hel']).filter((part) => part.type !== 'finish');
    const { events, error } = await collectUntilError(aisdk(v4Model([stream(parts)])).getStreamedResponse(request()));
    expect(events.some((event) => event.type === 'response_done')).toBe(false);
    expect(error).toMatchObject({ reason: 'stream_interrupted' });
    expect((error as Error).message).toMatch(/without its finish part/);
  });

  it('a hand-written stream without stream-start and finish returns what it sent, with no usage (the reference)', async () => {
    const parts = textStreamParts(['Hel', 'lo']).filter((part) => part.type !== 'finish' && part.type !== 'stream-start');
    const events = await collect(aisdk(v4Model([stream(parts)])).getStreamedResponse(request()));
    const done = events.at(-1);
    expect(done?.type).toBe('response_done');
    if (done?.type !== 'response_done') return;
    expect(done.response.output).toMatchObject([{ type: 'message', content: [{ type: 'output_text', text: 'Hello' }] }]);
    expect(done.response.usage).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    const empty = await collect(aisdk(v4Model([stream([])])).getStreamedResponse(request()));
    expect(empty).toMatchObject([{ type: 'response_done', response: { output: [] } }]);
  });

  it("a v4 finish reason 'interrupted' is stream_interrupted", async () => {
    const parts = [...textStreamParts(['Hel']).slice(0, -1), { type: 'finish' as const, finishReason: { unified: 'interrupted' as const, raw: undefined }, usage: usage(1, 1) }];
    const { error } = await collectUntilError(aisdk(v4Model([stream(parts)])).getStreamedResponse(request()));
    expect(error).toMatchObject({ reason: 'stream_interrupted' });
  });

  it('a stream that errors (a broken connection) is stream_interrupted', async () => {
    let sent = false;
    const broken = new ReadableStream<LanguageModelV4StreamPart>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue({ type: 'stream-start', warnings: [] });
        } else controller.error(Object.assign(new TypeError('terminated'), { cause: { code: 'ECONNRESET' } }));
      },
    });
    const model = v4Model([]);
    model.doStream = async () => ({ stream: broken });
    const { events, error } = await collectUntilError(aisdk(model).getStreamedResponse(request()));
    expect(kinds(events)).toEqual(['response_started', 'model:stream-start']);
    expect(error).toMatchObject({ reason: 'stream_interrupted' });
  });

  it('aborting mid-stream ends the iteration with an aborted error and aborts the model call', async () => {
    const controller = new AbortController();
    const model = v4Model([stream(textStreamParts(['a', 'b', 'c']), { hangAfter: 4 })]);
    const { events, error } = await collectUntilError(
      (async function* () {
        for await (const event of aisdk(model).getStreamedResponse(request({ signal: controller.signal }))) {
          yield event;
          if (event.type === 'output_text_delta') setTimeout(() => controller.abort(), 10);
        }
      })(),
    );
    expect(kinds(events).at(-1)).toBe('output_text_delta');
    expect(error).toBeInstanceOf(AiSdkProviderError);
    expect(error).toMatchObject({ reason: 'aborted' });
    expect(model.calls[0]?.abortSignal?.aborted).toBe(true);
    await waitFor(() => model.cancelled[0] === true);
  });

  it('a consumer that stops reading cancels the stream and aborts the model call', async () => {
    const model = v4Model([stream(textStreamParts(['a', 'b']), { hangAfter: 5 })]);
    for await (const event of aisdk(model).getStreamedResponse(request())) if (event.type === 'output_text_delta') break;
    expect(model.cancelled[0]).toBe(true);
    expect(model.calls[0]?.abortSignal?.aborted).toBe(true);
  });

  it('a stream that goes quiet for longer than modelSettings.timeoutMs is a timeout', async () => {
    const model = v4Model([stream(textStreamParts(['a']), { hangAfter: 2 })]);
    const { events, error } = await collectUntilError(aisdk(model).getStreamedResponse(request({ modelSettings: { timeoutMs: 50 } })));
    expect(kinds(events)).toEqual(['response_started', 'model:stream-start', 'model:response-metadata']);
    expect(error).toMatchObject({ reason: 'timeout', retryable: true });
    expect(model.calls[0]?.abortSignal?.aborted).toBe(true);
  });
});
