import { describe, expect, it } from 'vitest';
import { fakeError, fakeRefusal, fakeResponse, fakeText, fakeToolCalls } from '../src/index.js';
import { anthropicModel, apiCallError, conversation, hello, ofType, readAll, serve, sseFrames } from './vendorFixtures.js';

describe('FakeModelServer speaking the Anthropic Messages API to @ai-sdk/anthropic', () => {
  it('answers text with end_turn, usage and the request-id header, and records the call', async () => {
    const server = await serve(fakeText('Hello there'));
    const result = await anthropicModel(server).doGenerate(hello);
    expect(result.content).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(result.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
    expect(result.usage.inputTokens).toEqual({ total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 });
    expect(result.usage.outputTokens.total).toBe(5);
    expect(result.response?.headers?.['request-id']).toBe('req_fake_1');
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/messages', api: 'anthropic-messages', model: 'claude-sonnet-4-5', stream: false });
    expect(server.requests[0]!.headers['x-api-key']).toBe('test');
    expect(server.requests[0]!.headers['anthropic-version']).toBe('2023-06-01');
  });

  it.each([
    ['one tool call', [{ name: 'weather', arguments: { city: 'Paris' }, callId: 'toolu_paris' }]],
    ['two tool calls', [{ name: 'weather', arguments: { city: 'Paris' }, callId: 'toolu_paris' }, { name: 'weather', arguments: { city: 'Oslo' }, callId: 'toolu_oslo' }]],
  ])('answers %s as tool_use blocks with parsed input (JSON and SSE)', async (_label, calls) => {
    const server = await serve(fakeToolCalls(calls, { text: 'Checking.' }), fakeToolCalls(calls, { text: 'Checking.' }));
    const expected = calls.map((call) => ({ type: 'tool-call', toolCallId: call.callId, toolName: 'weather', input: JSON.stringify(call.arguments) }));

    const result = await anthropicModel(server).doGenerate(hello);
    expect(result.content).toEqual([{ type: 'text', text: 'Checking.' }, ...expected]);
    expect(result.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });

    const parts = await readAll((await anthropicModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'tool-call')).toEqual(expected);
    expect(ofType(parts, 'text-delta').map((p) => p.delta).join('')).toBe('Checking.');
    expect(ofType(parts, 'finish')[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    // the arguments arrive in pieces through input_json_delta
    expect(ofType(parts, 'tool-input-delta').length).toBe(2 * calls.length);
  });

  it('generates toolu_ ids when the turn has no callId', async () => {
    const server = await serve(fakeToolCalls([{ name: 'weather', arguments: { city: 'Rome' } }]));
    const result = await anthropicModel(server).doGenerate(hello);
    expect(result.content).toEqual([{ type: 'tool-call', toolCallId: expect.stringMatching(/^toolu_\d+$/), toolName: 'weather', input: '{"city":"Rome"}' }]);
  });

  it('sends arguments that are not JSON as a string input, and streams them raw', async () => {
    const turn = fakeToolCalls([{ name: 'weather', arguments: '{"city": "Par', callId: 'toolu_bad' }]);
    const server = await serve(turn, turn);
    const result = await anthropicModel(server).doGenerate(hello);
    // `input` is the raw string, which the client JSON-encodes
    expect(result.content).toEqual([{ type: 'tool-call', toolCallId: 'toolu_bad', toolName: 'weather', input: JSON.stringify('{"city": "Par') }]);
    const parts = await readAll((await anthropicModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'tool-call')).toEqual([{ type: 'tool-call', toolCallId: 'toolu_bad', toolName: 'weather', input: '{"city": "Par' }]);
  });

  it('answers reasoning as thinking blocks with signatures (JSON and SSE)', async () => {
    const turn = fakeResponse([{ type: 'reasoning', summary: 'Let me think.', signature: 'sig-abc' }, { type: 'message', text: 'Done.' }]);
    const server = await serve(turn, turn, fakeText('Hi', { reasoning: 'Hmm.' }));
    const result = await anthropicModel(server).doGenerate(hello);
    expect(result.content).toEqual([
      { type: 'reasoning', text: 'Let me think.', providerMetadata: { anthropic: { signature: 'sig-abc' } } },
      { type: 'text', text: 'Done.' },
    ]);

    const parts = await readAll((await anthropicModel(server).doStream(hello)).stream);
    const reasoning = ofType(parts, 'reasoning-delta');
    expect(reasoning.map((p) => p.delta).join('')).toBe('Let me think.');
    expect(reasoning.at(-1)!.providerMetadata).toEqual({ anthropic: { signature: 'sig-abc' } });
    expect(parts.map((p) => p.type)).toEqual(expect.arrayContaining(['reasoning-start', 'reasoning-end', 'text-start', 'text-end', 'finish']));

    const generated = await anthropicModel(server).doGenerate(hello);
    expect(generated.content[0]).toEqual({ type: 'reasoning', text: 'Hmm.', providerMetadata: { anthropic: { signature: expect.stringMatching(/^sig_\d+$/) } } });
  });

  it('reports usage with cache reads and thinking tokens the way the client totals them', async () => {
    const usage = { inputTokens: 100, cachedTokens: 40, outputTokens: 30, reasoningTokens: 12 };
    const server = await serve(fakeText('x', { usage }), fakeText('x', { usage }));
    const expected = { inputTokens: { total: 100, noCache: 60, cacheRead: 40, cacheWrite: 0 }, outputTokens: { total: 30, text: 18, reasoning: 12 } };
    expect((await anthropicModel(server).doGenerate(hello)).usage).toMatchObject(expected);
    const parts = await readAll((await anthropicModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'finish')[0]!.usage).toMatchObject(expected);
  });

  it.each([
    ['a refusal', fakeRefusal('I cannot help with that.'), { unified: 'content-filter', raw: 'refusal' }, 'I cannot help with that.'],
    ['an incomplete answer', fakeText('Cut sho', { status: 'incomplete' }), { unified: 'length', raw: 'max_tokens' }, 'Cut sho'],
  ])('answers %s with its stop_reason (JSON and SSE)', async (_label, turn, finishReason, text) => {
    const server = await serve(turn, turn);
    const result = await anthropicModel(server).doGenerate(hello);
    expect(result.finishReason).toEqual(finishReason);
    expect(result.content).toEqual([{ type: 'text', text }]);
    const parts = await readAll((await anthropicModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'finish')[0]!.finishReason).toEqual(finishReason);
    expect(ofType(parts, 'text-delta').map((p) => p.delta).join('')).toBe(text);
  });

  it.each([
    [400, 'invalid_request_error', false],
    [401, 'authentication_error', false],
    [429, 'rate_limit_error', true],
    [500, 'api_error', true],
    [529, 'overloaded_error', true],
  ])('answers an error turn with status %i as %s (isRetryable %s), for doGenerate and doStream', async (status, type, retryable) => {
    const server = await serve(fakeError(status, undefined, { headers: { 'retry-after': '1' } }), fakeError(status));
    const model = anthropicModel(server);
    for (const call of [() => model.doGenerate(hello), () => model.doStream(hello)]) {
      const apiError = await apiCallError(call);
      expect(apiError.statusCode).toBe(status);
      expect(apiError.isRetryable).toBe(retryable);
      expect(apiError.message).toBe(`Fake error with status ${status}.`);
      expect(JSON.parse(apiError.responseBody!)).toEqual({ type: 'error', error: { type, message: `Fake error with status ${status}.` } });
      expect(apiError.responseHeaders?.['request-id']).toMatch(/^req_fake_\d$/);
    }
    expect(server.requests.map((r) => r.stream)).toEqual([false, true]);
  });

  it('answers a failed turn with a 500 api_error, or an error event after the streamed output', async () => {
    const turn = fakeText('partial', { status: 'failed', error: { code: 'server_error', message: 'The model crashed.' } });
    const server = await serve(turn, turn);
    const error = await apiCallError(() => anthropicModel(server).doGenerate(hello));
    expect([error.statusCode, error.isRetryable, error.message]).toEqual([500, true, 'The model crashed.']);

    const parts = await readAll((await anthropicModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'text-delta').map((p) => p.delta).join('')).toBe('partial');
    const streamed = ofType(parts, 'error');
    expect(streamed).toHaveLength(1);
    expect(streamed[0]!.error).toMatchObject({ message: 'The model crashed.', statusCode: 500, isRetryable: true });
    expect(ofType(parts, 'finish')).toEqual([]);
  });

  it('turns an error event sent first (extraEvents) into an APICallError, as Anthropic does for overload', async () => {
    const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    const server = await serve(fakeText('never', { stream: { extraEvents: [{ at: 0, event: overloaded }] } }));
    const error = await apiCallError(() => anthropicModel(server).doStream(hello));
    expect([error.statusCode, error.isRetryable, error.message]).toEqual([529, true, 'Overloaded']);
  });

  it('fails the stream when the connection is cut mid-way', async () => {
    const server = await serve(fakeText('Hello there friend', { stream: { cutAfterEvents: 4 } }));
    const parts = await readAll((await anthropicModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'text-delta').map((p) => p.delta)).toEqual(['Hello the']);
    expect(parts.at(-1)).toMatchObject({ type: 'thrown' });
    expect(ofType(parts, 'finish')).toEqual([]);
    expect((await server.settled(0)).outcome).toBe('cut');
  });

  it('reports a malformed frame as an error part and goes on', async () => {
    const server = await serve(fakeText('Hello there', { stream: { malformedFrameAt: 3 } }));
    const parts = await readAll((await anthropicModel(server).doStream(hello)).stream);
    const errors = ofType(parts, 'error');
    expect(errors).toHaveLength(1);
    expect((errors[0]!.error as Error).name).toBe('AI_JSONParseError');
    expect(ofType(parts, 'text-delta').map((p) => p.delta).join('')).toBe('Hello there');
    expect(ofType(parts, 'finish')[0]!.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
  });

  it('records client_closed when the client aborts through abortSignal', async () => {
    const server = await serve(fakeText('Hello there', { stream: { hangAfterEvents: 4 } }));
    const controller = new AbortController();
    const { stream } = await anthropicModel(server).doStream({ ...hello, abortSignal: controller.signal });
    const reader = stream.getReader();
    const seen: string[] = [];
    while (!seen.includes('text-delta')) seen.push((await reader.read()).value!.type);
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });

  it('records the request in the Messages API shape: model, max_tokens, system, tool_use / tool_result blocks, tools with input_schema', async () => {
    const server = await serve(fakeText('Sunny.'), fakeText('Sunny.'));
    await anthropicModel(server).doGenerate(conversation);
    const body = server.requests[0]!.body;
    expect(body).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: 256,
      temperature: 0.5,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_paris', name: 'weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_paris', content: JSON.stringify({ celsius: 21 }) }] },
      ],
      tools: [{ name: 'weather', description: 'The weather in a city.', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
    });
    expect(body.stream).toBeUndefined();
    await anthropicModel(server).doStream(conversation).then((r) => readAll(r.stream));
    expect(server.requests[1]!.body.stream).toBe(true);
    expect(server.requests[1]!.stream).toBe(true);
  });

  it('streams Anthropic\'s event sequence with event lines named after each event', async () => {
    const server = await serve(fakeToolCalls([{ name: 'weather', arguments: { city: 'Paris' }, callId: 'toolu_1' }], { text: 'Hi', stream: { deltaChunks: 1 } }));
    const response = await fetch(`${server.anthropicBaseURL}/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [], stream: true }) });
    const frames = await sseFrames(response);
    expect(frames.every(([event, data]) => event === data.type)).toBe(true);
    expect(frames.map(([event]) => event)).toEqual([
      'message_start', 'ping',
      'content_block_start', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    expect(frames[0]![1].message).toMatchObject({ type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 10 } });
    expect(frames[5]![1].content_block).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} });
    expect(frames[6]![1].delta).toEqual({ type: 'input_json_delta', partial_json: '{"city":"Paris"}' });
    expect(frames[8]![1]).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } });
  });
});
