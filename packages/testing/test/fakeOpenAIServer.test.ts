import { afterEach, describe, expect, it } from 'vitest';
import {
  FakeOpenAIServer,
  fakeError,
  fakeRaw,
  fakeRefusal,
  fakeResponder,
  fakeResponse,
  fakeText,
  fakeToolCalls,
  startFakeOpenAIServer,
  type FakeTurn,
} from '../src/index.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...turns: FakeTurn[]): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAIServer({ turns });
  servers.push(server);
  return server;
}

function post(server: FakeOpenAIServer, path: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.baseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-x' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** SSE frames as [event name | null, data text]. */
async function frames(response: Response): Promise<Array<[string | null, string]>> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? null;
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
      return [event, data];
    });
}

describe('FakeOpenAIServer', () => {
  it('listens on a random loopback port and records bodies and headers', async () => {
    const server = await serve(fakeText('hi'));
    expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await post(server, '/responses', { model: 'm', input: 'hello' });
    expect(response.headers.get('x-request-id')).toBe('req_fake_1');
    expect(server.requests).toEqual([
      expect.objectContaining({ index: 0, method: 'POST', path: '/v1/responses', body: { model: 'm', input: 'hello' }, stream: false }),
    ]);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-x');
    expect((await server.settled(0)).outcome).toBe('completed');
  });

  it('answers /v1/responses with a response object', async () => {
    const server = await serve(fakeToolCalls([{ name: 'f', arguments: { a: 1 }, callId: 'call_1' }], { text: 'calling', usage: { inputTokens: 3, cachedTokens: 1 } }));
    const body = (await (await post(server, '/responses', { model: 'm', input: 'x' })).json()) as Record<string, any>;
    expect(body).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'm',
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'calling' }] },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
      ],
      usage: { input_tokens: 3, input_tokens_details: { cached_tokens: 1 }, output_tokens: 5, total_tokens: 8 },
    });
  });

  it('streams /v1/responses as the Responses event sequence with sequence numbers', async () => {
    const server = await serve(fakeText('Hi you', { reasoning: 'r' }));
    const response = await post(server, '/responses', { model: 'm', input: 'x', stream: true });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const parsed = await frames(response);
    const events = parsed.map(([name, data]) => ({ name, data: JSON.parse(data) as Record<string, any> }));
    expect(events.every((e) => e.name === e.data.type)).toBe(true);
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.data.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.at(-1)!.data.response.output).toHaveLength(2);
  });

  it('answers /v1/chat/completions with a chat.completion, and streams chunks, a usage chunk and [DONE]', async () => {
    const server = await serve(fakeRefusal('no'), fakeToolCalls([{ name: 'f', arguments: '{}', callId: 'c1' }]));
    const json = (await (await post(server, '/chat/completions', { model: 'm', messages: [] })).json()) as Record<string, any>;
    expect(json).toMatchObject({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'no' }, finish_reason: 'stop' }] });
    const parsed = await frames(await post(server, '/chat/completions', { model: 'm', messages: [], stream: true, stream_options: { include_usage: true } }));
    expect(parsed.at(-1)).toEqual([null, '[DONE]']);
    const chunks = parsed.slice(0, -1).map(([, data]) => JSON.parse(data) as Record<string, any>);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[1]!.choices[0].delta.tool_calls).toEqual([{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '' } }]);
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });

  it('sends scripted errors with their status, body and headers', async () => {
    const server = await serve(fakeError(429, undefined, { headers: { 'retry-after': '2' } }), fakeError(502, '<html>bad</html>', { contentType: 'text/html' }));
    const first = await post(server, '/responses', {});
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await first.json()).toEqual({ error: { message: 'Fake error with status 429.', type: 'invalid_request_error', param: null, code: 'fake_429' } });
    const second = await post(server, '/chat/completions', {});
    expect([second.status, second.headers.get('content-type'), await second.text()]).toEqual([502, 'text/html', '<html>bad</html>']);
  });

  it('sends raw bodies as they are and lets a responder decide from the request', async () => {
    const server = await serve(fakeRaw('{"choices":[]}'), fakeResponder(({ path, body }) => fakeText(`${path} ${body.model}`)));
    expect(await (await post(server, '/chat/completions', {})).text()).toBe('{"choices":[]}');
    const answer = (await (await post(server, '/responses', { model: 'echo' })).json()) as Record<string, any>;
    expect(answer.output[0].content[0].text).toBe('/v1/responses echo');
  });

  it('answers a responder that throws with a 500 that asks not to retry', async () => {
    const server = await serve(
      fakeResponder(() => {
        throw new Error('bad script');
      }),
    );
    const response = await post(server, '/responses', {});
    expect([response.status, response.headers.get('x-should-retry')]).toEqual([500, 'false']);
    expect(((await response.json()) as any).error.message).toMatch(/bad script/);
  });

  it('cuts, ends early, injects malformed and extra frames as scripted', async () => {
    const server = await serve(
      fakeText('abc', { stream: { cutAfterEvents: 2 } }),
      fakeText('abc', { stream: { endAfterEvents: 3 } }),
      fakeText('abc', { stream: { malformedFrameAt: 1, extraEvents: [{ at: 2, event: { type: 'x.custom' } }] } }),
    );
    await expect(post(server, '/responses', { stream: true }).then((r) => r.text())).rejects.toThrow();
    expect((await server.settled(0)).outcome).toBe('cut');
    expect(await frames(await post(server, '/responses', { stream: true }))).toHaveLength(3);
    expect((await server.settled(1)).outcome).toBe('ended_early');
    const third = await frames(await post(server, '/responses', { stream: true }));
    expect(third[1]![1]).toContain('this is not json');
    expect(third.map(([name]) => name)).toContain('x.custom');
  });

  it('records a client that closes a hanging stream, and waits before answering when told', async () => {
    const server = await serve(fakeText('abc', { stream: { hangAfterEvents: 1 } }), fakeText('late', { delayMs: 150 }));
    const controller = new AbortController();
    const response = await post(server, '/responses', { stream: true }, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    expect((await server.settled(0)).outcome).toBe('client_closed');
    const started = Date.now();
    await (await post(server, '/responses', {})).json();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('answers clearly when no turn is left, for unknown routes and for bodies that are not JSON', async () => {
    const server = await serve();
    const none = await post(server, '/responses', {});
    expect(none.status).toBe(400);
    expect(((await none.json()) as any).error.message).toMatch(/no scripted turn left for POST \/v1\/responses/);
    expect((await post(server, '/embeddings', {})).status).toBe(404);
    expect((await post(server, '/responses', 'not json')).status).toBe(400);
    expect(server.requests[2]!.body).toEqual({ raw: 'not json' });
  });

  it('counts and checks the turns left, and close() ends connections left hanging', async () => {
    const server = await FakeOpenAIServer.start({ turns: [fakeResponse([], { stream: { hangAfterEvents: 0 } })] });
    expect(server.remainingTurns).toBe(1);
    expect(() => server.assertComplete()).toThrow(/1 scripted turn/);
    const response = await post(server, '/responses', { stream: true });
    expect(server.remainingTurns).toBe(0);
    server.assertComplete();
    const reading = response.text().catch(() => 'closed');
    await server.close();
    await reading;
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });
});
