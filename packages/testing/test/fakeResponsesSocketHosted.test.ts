import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FakeOpenAIServer, fakeItems } from '../src/index.js';

// The fake Responses WebSocket in hosted multi-agent mode: a response stays open around a local
// function call until the client injects its output.

type Json = Record<string, any>;

const servers: FakeOpenAIServer[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function connect(server: FakeOpenAIServer): Promise<{ socket: WebSocket; next: () => Promise<Json> }> {
  const socket = new WebSocket(server.responsesWebSocketURL);
  sockets.push(socket);
  const frames: Json[] = [];
  const waiting: Array<(frame: Json) => void> = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Json;
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { socket, next: () => new Promise((resolve) => (frames.length > 0 ? resolve(frames.shift()!) : waiting.push(resolve))) };
}

async function until(next: () => Promise<Json>, type: string): Promise<Json[]> {
  const seen: Json[] = [];
  while (seen.at(-1)?.type !== type) seen.push(await next());
  return seen;
}

const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{}', status: 'completed', agent: { agent_name: '/root/a' } };
const answer = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', phase: 'final_answer', agent: { agent_name: '/root' }, content: [{ type: 'output_text', text: 'done', annotations: [] }] };

describe('FakeOpenAIServer: hosted multi-agent over the Responses WebSocket', () => {
  it('waits after a function call for response.inject, acknowledges it, then finishes the response', async () => {
    const server = await FakeOpenAIServer.start({ turns: [fakeItems([call, answer])] });
    servers.push(server);
    const { socket, next } = await connect(server);
    socket.send(JSON.stringify({ type: 'response.create', model: 'm', input: 'hi', multi_agent: { enabled: true } }));
    const beforeInjection = await until(next, 'response.output_item.done');
    const responseId = beforeInjection[0]?.response.id;
    expect(beforeInjection.at(-1)?.item.call_id).toBe('call_1');

    const injection = { type: 'response.inject', response_id: responseId, input: [{ type: 'function_call_output', call_id: 'call_1', output: 'ok' }] };
    socket.send(JSON.stringify(injection));
    expect(await next()).toEqual({ type: 'response.inject.created', response_id: responseId });
    const rest = await until(next, 'response.completed');
    expect(rest.at(-1)?.response.output).toEqual([call, answer]);
    // The injection is recorded like a request, its body with its type.
    expect(server.requests.map((recorded) => recorded.body.type)).toEqual([undefined, 'response.inject']);
    expect(server.requests[1]?.body).toEqual(injection);
  });

  it('does not wait without multi_agent, and answers an injection nothing waits for with response.inject.failed', async () => {
    const server = await FakeOpenAIServer.start({ turns: [fakeItems([call])] });
    servers.push(server);
    const { socket, next } = await connect(server);
    socket.send(JSON.stringify({ type: 'response.create', model: 'm', input: 'hi' }));
    await until(next, 'response.completed');
    const input = [{ type: 'function_call_output', call_id: 'call_1', output: 'late' }];
    socket.send(JSON.stringify({ type: 'response.inject', response_id: 'resp_gone', input }));
    expect(await next()).toMatchObject({ type: 'response.inject.failed', response_id: 'resp_gone', error: { code: 'response_already_completed' }, input });
  });
});
