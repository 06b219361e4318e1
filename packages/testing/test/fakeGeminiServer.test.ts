import { describe, expect, it } from 'vitest';
import { fakeError, fakeRefusal, fakeResponse, fakeText, fakeToolCalls } from '../src/index.js';
import { apiCallError, conversation, geminiModel, hello, ofType, readAll, serve, sseFrames } from './vendorFixtures.js';

const generatePath = '/v1beta/models/gemini-2.5-flash:generateContent';
const streamPath = '/v1beta/models/gemini-2.5-flash:streamGenerateContent';

describe('FakeModelServer speaking the Gemini API to @ai-sdk/google', () => {
  it('answers text with STOP and usage, and records the model from the path', async () => {
    const server = await serve(fakeText('Hello there'));
    const result = await geminiModel(server).doGenerate(hello);
    expect(result.content).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(result.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
    expect(result.usage.inputTokens).toEqual({ total: 10, noCache: 10, cacheRead: 0 });
    expect(result.usage.outputTokens).toEqual({ total: 5, text: 5, reasoning: 0 });
    expect(result.response?.id).toMatch(/^resp_\d+$/);
    expect(result.response?.body).toMatchObject({ modelVersion: 'gemini-2.5-flash', candidates: [{ content: { role: 'model' } }] });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: generatePath, api: 'gemini-generate-content', model: 'gemini-2.5-flash', stream: false });
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe('test');
  });

  it('records the streaming route as a stream (the flag is in the URL, not the body)', async () => {
    const server = await serve(fakeText('Hello there'));
    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'text-delta').map((p) => p.delta)).toEqual(['Hello ', 'there']);
    expect(ofType(parts, 'finish')[0]!.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
    expect(server.requests[0]).toMatchObject({ path: streamPath, api: 'gemini-generate-content', model: 'gemini-2.5-flash', stream: true });
    expect(server.requests[0]!.body.stream).toBeUndefined();
  });

  it.each([
    ['one function call', [{ name: 'weather', arguments: { city: 'Paris' }, callId: 'call_paris' }]],
    ['two function calls', [{ name: 'weather', arguments: { city: 'Paris' }, callId: 'call_paris' }, { name: 'weather', arguments: { city: 'Oslo' }, callId: 'call_oslo' }]],
  ])('answers %s as functionCall parts with parsed args (JSON and SSE)', async (_label, calls) => {
    const server = await serve(fakeToolCalls(calls, { text: 'Checking.' }), fakeToolCalls(calls, { text: 'Checking.' }));
    const expected = calls.map((call) => ({ type: 'tool-call', toolCallId: call.callId, toolName: 'weather', input: JSON.stringify(call.arguments) }));

    const result = await geminiModel(server).doGenerate(hello);
    expect(result.content).toEqual([{ type: 'text', text: 'Checking.' }, ...expected]);
    expect(result.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
    expect(result.response?.body).toMatchObject({ candidates: [{ content: { parts: [{ text: 'Checking.' }, ...calls.map((c) => ({ functionCall: { id: c.callId, name: c.name, args: c.arguments } }))] } }] });

    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'tool-call')).toEqual(expected);
    expect(ofType(parts, 'finish')[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
  });

  it('sends no function call id unless the turn scripts one (the client makes one up)', async () => {
    const server = await serve(fakeToolCalls([{ name: 'weather', arguments: { city: 'Rome' } }]));
    const result = await geminiModel(server).doGenerate(hello);
    expect(result.content).toEqual([{ type: 'tool-call', toolCallId: expect.any(String), toolName: 'weather', input: '{"city":"Rome"}' }]);
    expect(result.response?.body).toMatchObject({ candidates: [{ content: { parts: [{ functionCall: { name: 'weather', args: { city: 'Rome' } } }] } }] });
    expect(JSON.stringify(result.response?.body)).not.toContain('"id"');
  });

  it('sends arguments that are not JSON as string args', async () => {
    const turn = fakeToolCalls([{ name: 'weather', arguments: '{"city": "Par', callId: 'call_bad' }]);
    const server = await serve(turn, turn);
    const result = await geminiModel(server).doGenerate(hello);
    expect(result.content).toEqual([{ type: 'tool-call', toolCallId: 'call_bad', toolName: 'weather', input: JSON.stringify('{"city": "Par') }]);
    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'tool-call')).toEqual([{ type: 'tool-call', toolCallId: 'call_bad', toolName: 'weather', input: '{"city": "Par' }]);
  });

  it('answers reasoning as thought parts with a thoughtSignature (JSON and SSE)', async () => {
    const turn = fakeResponse([{ type: 'reasoning', summary: 'Let me think.', signature: 'sig-abc' }, { type: 'message', text: 'Done.' }]);
    const server = await serve(turn, turn);
    const result = await geminiModel(server).doGenerate(hello);
    expect(result.content).toEqual([
      { type: 'reasoning', text: 'Let me think.', providerMetadata: { google: { thoughtSignature: 'sig-abc' } } },
      { type: 'text', text: 'Done.' },
    ]);
    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    const reasoning = ofType(parts, 'reasoning-delta');
    expect(reasoning.map((p) => p.delta).join('')).toBe('Let me think.');
    expect(reasoning.at(-1)!.providerMetadata).toEqual({ google: { thoughtSignature: 'sig-abc' } });
    expect(ofType(parts, 'text-delta').map((p) => p.delta).join('')).toBe('Done.');
  });

  it('reports usage with cached content and thought tokens the way the client totals them', async () => {
    const usage = { inputTokens: 100, cachedTokens: 40, outputTokens: 30, reasoningTokens: 12 };
    const server = await serve(fakeText('x', { usage }), fakeText('x', { usage }));
    const expected = { inputTokens: { total: 100, noCache: 60, cacheRead: 40 }, outputTokens: { total: 30, text: 18, reasoning: 12 } };
    const result = await geminiModel(server).doGenerate(hello);
    expect(result.usage).toMatchObject(expected);
    expect(result.usage.raw).toEqual({ promptTokenCount: 100, candidatesTokenCount: 18, totalTokenCount: 130, cachedContentTokenCount: 40, thoughtsTokenCount: 12 });
    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'finish')[0]!.usage).toMatchObject(expected);
  });

  it.each([
    ['a refusal', fakeRefusal('I cannot help with that.'), { unified: 'content-filter', raw: 'SAFETY' }, 'I cannot help with that.'],
    ['an incomplete answer', fakeText('Cut sho', { status: 'incomplete' }), { unified: 'length', raw: 'MAX_TOKENS' }, 'Cut sho'],
  ])('answers %s with its finishReason (JSON and SSE)', async (_label, turn, finishReason, text) => {
    const server = await serve(turn, turn);
    const result = await geminiModel(server).doGenerate(hello);
    expect(result.finishReason).toEqual(finishReason);
    expect(result.content).toEqual([{ type: 'text', text }]);
    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'finish')[0]!.finishReason).toEqual(finishReason);
    expect(ofType(parts, 'text-delta').map((p) => p.delta).join('')).toBe(text);
  });

  it('marks a refusal with a blocked safety rating', async () => {
    const server = await serve(fakeRefusal('No.'));
    const result = await geminiModel(server).doGenerate(hello);
    expect(result.providerMetadata?.google?.safetyRatings).toEqual([{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }]);
  });

  it.each([
    [400, 'INVALID_ARGUMENT', false],
    [403, 'PERMISSION_DENIED', false],
    [429, 'RESOURCE_EXHAUSTED', true],
    [500, 'INTERNAL', true],
    [503, 'UNAVAILABLE', true],
  ])('answers an error turn with status %i as %s (isRetryable %s), for doGenerate and doStream', async (status, rpcStatus, retryable) => {
    const server = await serve(fakeError(status), fakeError(status));
    const model = geminiModel(server);
    for (const call of [() => model.doGenerate(hello), () => model.doStream(hello)]) {
      const error = await apiCallError(call);
      expect([error.statusCode, error.isRetryable, error.message]).toEqual([status, retryable, `Fake error with status ${status}.`]);
      expect(JSON.parse(error.responseBody!)).toEqual({ error: { code: status, message: `Fake error with status ${status}.`, status: rpcStatus } });
    }
    expect(server.requests.map((r) => r.stream)).toEqual([false, true]);
  });

  it('answers a failed turn with a 500 INTERNAL error, or an error chunk after the streamed output', async () => {
    const turn = fakeText('partial', { status: 'failed', error: { code: 'server_error', message: 'The model crashed.' } });
    const server = await serve(turn, turn);
    const error = await apiCallError(() => geminiModel(server).doGenerate(hello));
    expect([error.statusCode, error.isRetryable, error.message]).toEqual([500, true, 'The model crashed.']);

    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'text-delta').map((p) => p.delta).join('')).toBe('partial');
    const streamed = ofType(parts, 'error');
    expect(streamed).toHaveLength(1);
    expect(streamed[0]!.error).toMatchObject({ message: 'The model crashed.', statusCode: 500, isRetryable: true });
    expect(ofType(parts, 'finish')[0]!.finishReason).toEqual({ unified: 'error', raw: undefined });
  });

  it('fails the stream when the connection is cut mid-way', async () => {
    const server = await serve(fakeText('Hello there friend', { stream: { deltaChunks: 3, cutAfterEvents: 1 } }));
    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'text-delta').map((p) => p.delta)).toEqual(['Hello ']);
    expect(parts.at(-1)).toMatchObject({ type: 'thrown' });
    expect((await server.settled(0)).outcome).toBe('cut');
  });

  it('finishes as interrupted when the stream ends early without a finishReason', async () => {
    const server = await serve(fakeText('Hello there friend', { stream: { deltaChunks: 3, endAfterEvents: 2 } }));
    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'text-delta').map((p) => p.delta).join('')).toBe('Hello there ');
    expect(ofType(parts, 'finish')[0]!.finishReason).toEqual({ unified: 'interrupted', raw: undefined });
    expect((await server.settled(0)).outcome).toBe('ended_early');
  });

  it('reports a malformed frame as an error part and goes on', async () => {
    const server = await serve(fakeText('Hello there', { stream: { malformedFrameAt: 1 } }));
    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    const errors = ofType(parts, 'error');
    expect(errors).toHaveLength(1);
    expect((errors[0]!.error as Error).name).toBe('AI_JSONParseError');
    expect(ofType(parts, 'text-delta').map((p) => p.delta).join('')).toBe('Hello there');
    expect(ofType(parts, 'finish')[0]!.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
  });

  it('passes extra chunks through (an in-stream error chunk)', async () => {
    const quota = { error: { code: 429, message: 'Quota exceeded.', status: 'RESOURCE_EXHAUSTED' } };
    const server = await serve(fakeText('Hello there', { stream: { extraEvents: [{ at: 1, event: quota }] } }));
    const parts = await readAll((await geminiModel(server).doStream(hello)).stream);
    expect(ofType(parts, 'error')[0]!.error).toMatchObject({ message: 'Quota exceeded.', statusCode: 429, isRetryable: true });
  });

  it('records client_closed when the client aborts through abortSignal', async () => {
    const server = await serve(fakeText('Hello there', { stream: { hangAfterEvents: 1 } }));
    const controller = new AbortController();
    const { stream } = await geminiModel(server).doStream({ ...hello, abortSignal: controller.signal });
    const reader = stream.getReader();
    const seen: string[] = [];
    while (!seen.includes('text-delta')) seen.push((await reader.read()).value!.type);
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });

  it('records the request in the Gemini shape: contents with user/model roles, functionCall / functionResponse parts, systemInstruction, functionDeclarations, generationConfig', async () => {
    const server = await serve(fakeText('Sunny.'));
    await geminiModel(server).doGenerate(conversation);
    expect(server.requests[0]!.body).toMatchObject({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { name: 'weather', content: { celsius: 21 } } } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'weather', description: 'The weather in a city.', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }] }],
      generationConfig: { maxOutputTokens: 256, temperature: 0.5 },
    });
    expect(server.requests[0]!.body.model).toBeUndefined(); // the model is in the path
  });

  it('streams data-only SSE frames of GenerateContentResponse chunks, the last with finishReason and usageMetadata', async () => {
    const server = await serve(fakeText('Hi you'));
    const response = await fetch(`${server.googleBaseURL}/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, { method: 'POST', body: JSON.stringify({ contents: [] }) });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = await sseFrames(response);
    expect(frames.map(([event]) => event)).toEqual([null, null]);
    expect(frames.map(([, data]) => data.candidates[0].content)).toEqual([{ parts: [{ text: 'Hi ' }], role: 'model' }, { parts: [{ text: 'you' }], role: 'model' }]);
    expect(frames[0]![1].candidates[0].finishReason).toBeUndefined();
    expect(frames[1]![1]).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { totalTokenCount: 15 }, modelVersion: 'gemini-2.5-flash' });
    expect(frames[0]![1].responseId).toBe(frames[1]![1].responseId);
  });

  it('answers the streaming route without alt=sse as one JSON array, and the /v1 routes too', async () => {
    const server = await serve(fakeText('Hi you'), fakeText('Hey'));
    const array = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, { method: 'POST', body: '{}' });
    expect(array.headers.get('content-type')).toBe('application/json');
    expect(((await array.json()) as unknown[]).length).toBe(2);
    const v1 = await fetch(`${server.url}/v1/models/gemini-2.0-flash:generateContent`, { method: 'POST', body: '{}' });
    expect(await v1.json()).toMatchObject({ candidates: [{ content: { parts: [{ text: 'Hey' }] } }], modelVersion: 'gemini-2.0-flash' });
  });
});
