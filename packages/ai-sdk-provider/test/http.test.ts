import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Agent, retryPolicies, run, tool } from '@baton/core';
import { FakeOpenAIServer, fakeError, fakeText, fakeToolCalls, type FakeTurn } from '@baton/testing';
import type { RunStreamEvent } from '@baton/types';
import { z } from 'zod';
import { aisdk, AiSdkProviderError, isAiSdkRawModelStreamEvent } from '../src/index.js';
import { collectUntilError, rejectionOf, request, waitFor } from './helpers.js';

// Real HTTP: the AI SDK's OpenAI-compatible provider (a v4 language model) against a local server speaking the OpenAI wire format.

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serverWith(...turns: FakeTurn[]): Promise<FakeOpenAIServer> {
  const server = await FakeOpenAIServer.start({ turns });
  servers.push(server);
  return server;
}

function modelOn(server: FakeOpenAIServer) {
  return aisdk(createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'x', includeUsage: true }).chatModel('m'));
}

const getWeather = tool({
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: sunny, 21°C`,
});

describe('over HTTP with @ai-sdk/openai-compatible', () => {
  it('runs an agent through a tool-call round trip', async () => {
    const server = await serverWith(fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Lisbon' }, callId: 'call_abc' }]), fakeText('Lisbon is sunny.', { usage: { inputTokens: 30, outputTokens: 6, cachedTokens: 10 } }));
    const agent = new Agent({ name: 'Weather', instructions: 'Answer briefly.', model: modelOn(server), tools: [getWeather] });
    const result = await run(agent, 'Weather in Lisbon?');
    expect(result.finalOutput).toBe('Lisbon is sunny.');
    expect(server.requests).toHaveLength(2);
    const first = server.requests[0]!.body;
    expect(first.messages).toEqual([
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Weather in Lisbon?' },
    ]);
    expect(first.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: expect.objectContaining({ type: 'object', required: ['city'] }), strict: true } },
    ]);
    expect(server.requests[1]!.body.messages.slice(2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }] },
      { role: 'tool', tool_call_id: 'call_abc', content: 'Lisbon: sunny, 21°C' },
    ]);
    expect(result.rawResponses[0]?.requestId).toBe('req_fake_1');
    expect(result.state.usage).toMatchObject({ requests: 2, inputTokens: 40, outputTokens: 11 });
  });

  it('streams a run: raw AI SDK parts, text deltas, the final output and usage', async () => {
    const server = await serverWith(
      fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Porto' } }], { stream: { deltaChunks: 3 } }),
      fakeText('Porto is sunny.', { reasoning: 'Easy.', stream: { deltaChunks: 3 }, usage: { inputTokens: 12, outputTokens: 4, reasoningTokens: 2 } }),
    );
    const agent = new Agent({ name: 'Weather', model: modelOn(server), tools: [getWeather] });
    const result = await run(agent, 'Weather in Porto?', { stream: true });
    const events: RunStreamEvent[] = [];
    for await (const event of result) events.push(event);
    await result.completed;
    expect(result.finalOutput).toBe('Porto is sunny.');
    expect(server.requests.every((r) => r.stream && r.body.stream_options?.include_usage === true)).toBe(true);
    const raw = events.filter(isAiSdkRawModelStreamEvent).map((event) => ((event as { data: { event: { type: string } } }).data.event.type));
    expect(raw).toEqual(expect.arrayContaining(['stream-start', 'tool-input-start', 'tool-input-delta', 'tool-call', 'reasoning-delta', 'text-delta', 'finish']));
    const deltas = events.flatMap((event) => (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta' ? [event.data.delta] : []));
    expect(deltas.join('')).toBe('Porto is sunny.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(result.rawResponses[1]?.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(result.rawResponses[1]?.usage).toMatchObject({ inputTokens: 12, outputTokens: 4, outputTokensDetails: [{ reasoning_tokens: 2 }] });
  });

  it('a 429 is an AiSdkProviderError with status, retryable and Retry-After; a retry policy following the advice recovers', async () => {
    const server = await serverWith(fakeError(429, undefined, { headers: { 'retry-after': '0.05' } }));
    const error = await rejectionOf(modelOn(server).getResponse(request()));
    expect(error).toBeInstanceOf(AiSdkProviderError);
    expect(error).toMatchObject({ reason: 'http', status: 429, retryable: true, retryAfterMs: 50, requestId: 'req_fake_1', code: 'fake_429' });

    server.enqueue(fakeError(429, undefined, { headers: { 'retry-after-ms': '20' } }), fakeText('recovered'));
    const agent = new Agent({ name: 'A', model: modelOn(server), modelSettings: { retry: { maxRetries: 2, policy: retryPolicies.providerSuggested() } } });
    expect((await run(agent, 'hi')).finalOutput).toBe('recovered');
    expect(server.requests).toHaveLength(3);
  });

  it('aborting a streamed run mid-stream closes the connection (the server sees client_closed)', async () => {
    const server = await serverWith(fakeText('Hello there, world', { stream: { hangAfterEvents: 3, deltaChunks: 4 } }));
    const controller = new AbortController();
    const agent = new Agent({ name: 'A', model: modelOn(server) });
    const result = await run(agent, 'hi', { stream: true, signal: controller.signal });
    const seen: string[] = [];
    const iterate = (async () => {
      for await (const event of result) {
        if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') {
          seen.push(event.data.delta);
          controller.abort();
        }
      }
    })();
    await Promise.allSettled([iterate, result.completed]);
    expect(seen.length).toBeGreaterThan(0);
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });

  it('aborting while waiting for a non-streamed answer closes the connection and is reported as the abort', async () => {
    const server = await serverWith(fakeText('late', { delayMs: 5_000 }));
    const controller = new AbortController();
    const pending = modelOn(server).getResponse(request({ signal: controller.signal }));
    await waitFor(() => server.requests.length === 1);
    controller.abort();
    expect(await rejectionOf(pending)).toMatchObject({ reason: 'aborted' });
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });

  it('at the model level, an abort mid-stream is reported as the abort', async () => {
    const server = await serverWith(fakeText('Hello there, world', { stream: { hangAfterEvents: 3, deltaChunks: 4 } }));
    const controller = new AbortController();
    const events = modelOn(server).getStreamedResponse(request({ signal: controller.signal }));
    const { error } = await collectUntilError(
      (async function* () {
        for await (const event of events) {
          yield event;
          if (event.type === 'output_text_delta') controller.abort();
        }
      })(),
    );
    expect(error).toMatchObject({ reason: 'aborted', status: undefined });
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });

  it('a connection cut mid-stream is stream_interrupted; a clean end without finish_reason is a stream error', async () => {
    const server = await serverWith(fakeText('Hello there', { stream: { cutAfterEvents: 2 } }), fakeText('Hello there', { stream: { endAfterEvents: 2 } }));
    const cut = await collectUntilError(modelOn(server).getStreamedResponse(request()));
    expect(cut.error).toMatchObject({ reason: 'stream_interrupted' });
    const ended = await collectUntilError(modelOn(server).getStreamedResponse(request()));
    expect(ended.error).toBeInstanceOf(AiSdkProviderError);
    expect(ended.error).toMatchObject({ reason: 'stream_error' });
    expect((ended.error as Error).message).toMatch(/without a finish reason/);
  });

  it('structured output is sent as a JSON schema response format', async () => {
    const server = await serverWith(fakeText('{"city":"Lisbon"}'));
    const model = aisdk(createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'x', supportsStructuredOutputs: true }).chatModel('m'));
    const agent = new Agent({ name: 'A', model, outputType: z.object({ city: z.string() }) });
    expect((await run(agent, 'Where?')).finalOutput).toEqual({ city: 'Lisbon' });
    expect(server.requests[0]!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'output', strict: true, schema: { type: 'object', required: ['city'] } } });
  });
});
