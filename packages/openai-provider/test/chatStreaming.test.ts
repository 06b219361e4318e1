import { describe, expect, it } from 'vitest';
import { fakeRaw, fakeResponse, fakeText, fakeToolCalls } from '@baton/testing';
import { ModelBehaviorError } from '@baton/types';
import { CHAT_COMPLETIONS_EMPTY_TRUNCATION_ERROR, CONTENT_FILTER_REFUSAL_MESSAGE, OpenAIProviderError, OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE } from '../src/index.js';
import { collect, collectUntilError, fakeServer, modelFor, request } from './helpers.js';

const stream = (server: Awaited<ReturnType<typeof fakeServer>>) => modelFor(server, 'chat_completions').getStreamedResponse(request());
const sse = (...frames: unknown[]) =>
  fakeRaw(frames.map((frame) => `data: ${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n\n`).join(''), { contentType: 'text/event-stream' });
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('OpenAIChatCompletionsModel streaming', () => {
  it('passes every chunk through, derives text deltas and assembles response_done with the final usage chunk', async () => {
    const server = await fakeServer(fakeText('Hello world', { reasoning: 'hmm', usage: { inputTokens: 7, outputTokens: 3, cachedTokens: 2, reasoningTokens: 1 } }));
    const events = await collect(stream(server));
    const raw = events.filter((e) => e.type === 'model');
    // role chunk, 2 reasoning, 2 content, finish chunk, usage chunk
    expect(raw).toHaveLength(7);
    expect(raw.every((e) => e.providerData?.rawModelEventSource === OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE)).toBe(true);
    expect(raw.every((e) => (e.event as { object?: string }).object === 'chat.completion.chunk')).toBe(true);
    expect(events[0]?.type).toBe('response_started');
    expect(events.filter((e) => e.type === 'output_text_delta').map((e) => e.delta)).toEqual(['Hello ', 'world']);
    const done = events.at(-1);
    expect(done).toMatchObject({
      type: 'response_done',
      response: {
        requestId: 'req_fake_1',
        usage: { requests: 1, inputTokens: 7, outputTokens: 3, totalTokens: 10, inputTokensDetails: { cached_tokens: 2 }, outputTokensDetails: { reasoning_tokens: 1 } },
        output: [
          { type: 'reasoning', rawContent: [{ type: 'reasoning_text', text: 'hmm' }] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello world' }] },
        ],
        providerData: { finish_reason: 'stop', model: 'gpt-4.1' },
      },
    });
    expect(done?.type === 'response_done' && done.response.id).toMatch(/^chatcmpl_/);
  });

  it('assembles parallel tool calls from their deltas, arguments that are not JSON included', async () => {
    const server = await fakeServer(
      fakeToolCalls([
        { name: 'get_weather', arguments: { city: 'Lisbon' }, callId: 'call_a' },
        { name: 'broken', arguments: '{"oops', callId: 'call_b' },
      ]),
    );
    const events = await collect(stream(server));
    const done = events.at(-1);
    const id = done?.type === 'response_done' ? done.response.id : undefined;
    expect(done?.type === 'response_done' && done.response.output).toEqual([
      { id, type: 'function_call', callId: 'call_a', name: 'get_weather', arguments: '{"city":"Lisbon"}' },
      { id, type: 'function_call', callId: 'call_b', name: 'broken', arguments: '{"oops' },
    ]);
  });

  it('takes chunks without choices (content-filter preambles, usage) in its stride', async () => {
    const server = await fakeServer(sse({ id: 'x', choices: [], prompt_filter_results: [] }, chunk({ content: 'hi' }), chunk({}, 'stop'), '[DONE]'));
    const events = await collect(stream(server));
    expect(events.filter((e) => e.type === 'model')).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: 'response_done', response: { output: [{ content: [{ text: 'hi' }] }] } });
  });

  it.each([
    ['sends a frame that is not JSON', sse(chunk({ content: 'hi' }), '{not json', chunk({}, 'stop')), 'malformed_stream', /not JSON/],
    ['sends an error object', sse(chunk({ content: 'hi' }), { error: { message: 'overloaded', type: 'server_error', code: 'busy' } }), 'stream_error', /overloaded/],
  ])('a stream that %s is a typed error', async (_label, turn, reason, message) => {
    const server = await fakeServer(turn);
    const { error } = await collectUntilError(stream(server));
    expect(error).toBeInstanceOf(OpenAIProviderError);
    expect(error).toMatchObject({ reason, api: 'chat_completions' });
    expect((error as Error).message).toMatch(message);
  });

  it('a connection cut mid-stream is a stream_interrupted error', async () => {
    const server = await fakeServer(fakeText('Hello world, how are you', { stream: { cutAfterEvents: 3, deltaChunks: 4 } }));
    const { events, error } = await collectUntilError(stream(server));
    expect(events.filter((e) => e.type === 'model')).toHaveLength(3);
    expect(error).toMatchObject({ reason: 'stream_interrupted' });
    expect((await server.settled(0)).outcome).toBe('cut');
  });

  it("finish_reason 'length' with nothing produced is a ModelBehaviorError, unsafe to replay", async () => {
    const server = await fakeServer(fakeResponse([], { status: 'incomplete' }));
    const { error } = await collectUntilError(stream(server));
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect(error).toMatchObject({ terminal: 'length', api: 'chat_completions', message: CHAT_COMPLETIONS_EMPTY_TRUNCATION_ERROR });
    expect((error as { unsafeToReplay?: boolean }).unsafeToReplay).toBe(true);
    expect(Object.keys(error as object)).not.toContain('unsafeToReplay');
  });

  it('a stream that ends without a finish_reason ends with what it produced, as the reference does', async () => {
    const server = await fakeServer(sse(chunk({ content: 'hi' }), '[DONE]'), sse('[DONE]'));
    const events = await collect(stream(server));
    expect(events.filter((e) => e.type === 'model').length).toBe(1);
    expect(events.at(-1)).toMatchObject({
      type: 'response_done',
      response: { id: 'chatcmpl-1', output: [{ id: 'chatcmpl-1', type: 'message', content: [{ type: 'output_text', text: 'hi' }] }], providerData: { finish_reason: null } },
    });
    // Not even one chunk: an empty answer.
    expect((await collect(stream(server))).at(-1)).toMatchObject({ type: 'response_done', response: { output: [] } });
  });

  it('passes each chunk through before what it produces, and gives text deltas the completion id', async () => {
    const server = await fakeServer(sse(chunk({ content: 'hi' }), chunk({}, 'stop'), '[DONE]'));
    const events = await collect(stream(server));
    expect(events.map((e) => e.type)).toEqual(['response_started', 'model', 'output_text_delta', 'model', 'response_done']);
    expect(events[2]).toMatchObject({ type: 'output_text_delta', delta: 'hi', itemId: 'chatcmpl-1' });
  });

  it('an empty content-filtered stream becomes a refusal', async () => {
    const server = await fakeServer(sse(chunk({ role: 'assistant' }), chunk({}, 'content_filter'), '[DONE]'));
    const events = await collect(stream(server));
    expect(events.at(-1)).toMatchObject({ response: { output: [{ type: 'message', content: [{ type: 'refusal', refusal: CONTENT_FILTER_REFUSAL_MESSAGE }] }] } });
  });
});
