import { describe, expect, it } from 'vitest';
import { fakeResponse, fakeText, fakeToolCalls } from '@baton/testing';
import { ModelBehaviorError } from '@baton/types';
import { OpenAIProviderError, OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE } from '../src/index.js';
import { collect, collectUntilError, fakeServer, modelFor, rawTypes, request } from './helpers.js';

const stream = (server: Awaited<ReturnType<typeof fakeServer>>) => modelFor(server, 'responses').getStreamedResponse(request());

describe('OpenAIResponsesModel streaming', () => {
  it('passes every event through as a model event and derives response_started, text deltas and response_done', async () => {
    const server = await fakeServer(fakeText('Hello world', { usage: { inputTokens: 7, outputTokens: 3, cachedTokens: 2, reasoningTokens: 1 } }));
    const events = await collect(stream(server));
    expect(rawTypes(events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.filter((e) => e.type === 'model').every((e) => e.providerData?.rawModelEventSource === OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE)).toBe(true);
    expect(events[0]).toMatchObject({ type: 'response_started', providerData: { type: 'response.created' } });
    const deltas = events.filter((e) => e.type === 'output_text_delta');
    expect(deltas.map((e) => e.delta).join('')).toBe('Hello world');
    expect(deltas.every((e) => e.itemId === 'msg_1')).toBe(true);
    const done = events.find((e) => e.type === 'response_done');
    expect(done).toMatchObject({
      type: 'response_done',
      response: {
        requestId: 'req_fake_1',
        usage: { requests: 1, inputTokens: 7, outputTokens: 3, totalTokens: 10, inputTokensDetails: { cached_tokens: 2 }, outputTokensDetails: { reasoning_tokens: 1 } },
        output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello world' }] }],
      },
    });
    expect(done?.type === 'response_done' && done.response.id).toMatch(/^resp_/);
  });

  it('assembles function calls and reasoning into response_done', async () => {
    const server = await fakeServer(
      fakeResponse([
        { type: 'reasoning', summary: 'think' },
        { type: 'function_call', name: 'lookup', arguments: '{"id":7}', callId: 'call_9' },
      ]),
    );
    const events = await collect(stream(server));
    expect(rawTypes(events)).toContain('response.function_call_arguments.delta');
    expect(rawTypes(events)).toContain('response.reasoning_summary_text.delta');
    expect(events.filter((e) => e.type === 'output_text_delta')).toHaveLength(0);
    const done = events.find((e) => e.type === 'response_done');
    expect(done?.type === 'response_done' && done.response.output).toMatchObject([
      { type: 'reasoning', content: [{ type: 'input_text', text: 'think' }] },
      { type: 'function_call', callId: 'call_9', name: 'lookup', arguments: '{"id":7}' },
    ]);
  });

  it('passes an unknown event type through as a raw model event and carries on', async () => {
    const server = await fakeServer(fakeText('ok', { stream: { extraEvents: [{ at: 3, event: { type: 'response.future_thing', payload: 1 } }] } }));
    const events = await collect(stream(server));
    expect(rawTypes(events)).toContain('response.future_thing');
    expect(events.at(-2)?.type).toBe('response_done');
  });

  it('a frame that is not JSON is a malformed_stream error after the events before it', async () => {
    const server = await fakeServer(fakeText('ok', { stream: { malformedFrameAt: 4 } }));
    const { events, error } = await collectUntilError(stream(server));
    expect(rawTypes(events)).toHaveLength(4);
    expect(error).toBeInstanceOf(OpenAIProviderError);
    expect(error).toMatchObject({ reason: 'malformed_stream', requestId: 'req_fake_1' });
  });

  it('a connection cut mid-stream is a stream_interrupted error', async () => {
    const server = await fakeServer(fakeText('Hello world', { stream: { cutAfterEvents: 5 } }));
    const { events, error } = await collectUntilError(stream(server));
    expect(rawTypes(events)).toHaveLength(5);
    expect(error).toMatchObject({ reason: 'stream_interrupted', api: 'responses' });
    expect((await server.settled(0)).outcome).toBe('cut');
  });

  it('a stream that ends cleanly before response.completed is a stream_interrupted error', async () => {
    const server = await fakeServer(fakeText('Hello', { stream: { endAfterEvents: 6 } }));
    const { events, error } = await collectUntilError(stream(server));
    expect(rawTypes(events)).toHaveLength(6);
    expect(error).toMatchObject({ reason: 'stream_interrupted', requestId: 'req_fake_1' });
    expect((error as Error).message).toMatch(/before its response.completed/);
  });

  it.each([
    ['failed', 'response.failed'],
    ['incomplete', 'response.incomplete'],
  ] as const)('a %s terminal event is passed through, then thrown as a ModelBehaviorError', async (status, eventType) => {
    const server = await fakeServer(fakeToolCalls([{ name: 'f' }], { status, error: { code: 'server_error', message: 'boom' } }));
    const { events, error } = await collectUntilError(stream(server));
    expect(rawTypes(events).at(-1)).toBe(eventType);
    expect(events.some((e) => e.type === 'response_done')).toBe(false);
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect(error).toMatchObject({ terminal: eventType, requestId: 'req_fake_1', message: `OpenAI Responses request ended with unsuccessful terminal state "${eventType}".` });
  });

  it('an error event in the stream is a stream_error carrying its code', async () => {
    const server = await fakeServer(
      fakeText('ok', { stream: { extraEvents: [{ at: 2, event: { type: 'error', code: 'server_error', message: 'overloaded', param: null } }] } }),
    );
    const { events, error } = await collectUntilError(stream(server));
    // openai 7's stream reader raises the `error` event itself, so it is not passed through as a raw event.
    expect(rawTypes(events)).toEqual(['response.created', 'response.in_progress']);
    expect(error).toMatchObject({ reason: 'stream_error', code: 'server_error', requestId: 'req_fake_1' });
    expect((error as Error).message).toMatch(/overloaded/);
  });
});
