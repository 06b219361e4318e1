import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { OpenAIHostedMultiAgentModel } from '../src/experimental/hosted-multi-agent.js';
import { request } from './helpers.js';

// What the service does that the fake server does not: a hosted response kept open across a lost
// socket (the next turn opens a new one and injects there), and an injection that comes after the
// response completed (given back, then sent in a chained response.create). A small scripted server
// plays the service: each connection answers by its script.

type Json = Record<string, any>;
type Script = (frame: Json, socket: WebSocket) => void;

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function scriptedService(scripts: Script[]): Promise<{ baseURL: string; frames: Json[][] }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const frames: Json[][] = [];
  server.on('connection', (socket) => {
    const index = frames.push([]) - 1;
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Json;
      frames[index]!.push(frame);
      scripts[index]?.(frame, socket);
    });
  });
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, frames };
}

const send = (socket: WebSocket, event: Json) => socket.send(JSON.stringify(event));
const response = (output: Json[], id = 'resp_1') => ({ id, object: 'response', status: 'completed', output, usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } });
const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{}', status: 'completed', agent: { agent_name: '/root/a' } };
const answer = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', phase: 'final_answer', agent: { agent_name: '/root' }, content: [{ type: 'output_text', text: 'done', annotations: [] }] };

describe('OpenAIHostedMultiAgentModel: a socket lost between turns', () => {
  it('opens a new socket and injects the outputs into the response still open', async () => {
    const service = await scriptedService([
      // First connection: the response starts, a subagent calls a local tool, and the socket drops.
      (_frame, socket) => {
        send(socket, { type: 'response.created', response: { ...response([]), status: 'in_progress', usage: null } });
        send(socket, { type: 'response.output_item.done', output_index: 0, item: call });
        setTimeout(() => socket.terminate(), 20);
      },
      // Second connection: the injection lands in the same response, which then completes.
      (frame, socket) => {
        send(socket, { type: 'response.inject.created', response_id: frame.response_id });
        send(socket, { type: 'response.completed', response: response([call, answer]) });
      },
    ]);
    const model = new OpenAIHostedMultiAgentModel(new OpenAI({ apiKey: 'sk-test', baseURL: service.baseURL }), 'gpt-5.6-sol');
    try {
      const boundary = await model.getResponse(request());
      expect(boundary.output).toMatchObject([{ type: 'function_call', callId: 'call_1' }]);
      await new Promise((resolve) => setTimeout(resolve, 100));

      const final = await model.getResponse(request({ input: [...boundary.output, { type: 'function_call_result', callId: 'call_1', name: 'lookup', status: 'completed', output: { type: 'text', text: 'ok' } }] }));
      expect(service.frames[1]).toEqual([{ type: 'response.inject', response_id: 'resp_1', input: [expect.objectContaining({ call_id: 'call_1', output: 'ok' })] }]);
      expect(final.output).toMatchObject([{ type: 'message', id: 'msg_1' }]);
      expect(final.usage).toMatchObject({ requests: 1, inputTokens: 9 });
    } finally {
      await model.close();
    }
  });

  it('continues a response that completed before the injection landed, with a chained response.create', async () => {
    const service = await scriptedService([
      (frame, socket) => {
        if (frame.type === 'response.create' && frame.previous_response_id === undefined) {
          send(socket, { type: 'response.created', response: { ...response([]), status: 'in_progress', usage: null } });
          send(socket, { type: 'response.output_item.done', output_index: 0, item: call });
        } else if (frame.type === 'response.inject') {
          // The response ended first: the service gives the injected input back.
          send(socket, { type: 'response.completed', response: response([call]) });
          send(socket, { type: 'response.inject.failed', response_id: 'resp_1', error: { code: 'response_already_completed' }, input: frame.input });
        } else {
          send(socket, { type: 'response.created', response: { ...response([], 'resp_2'), status: 'in_progress', usage: null } });
          send(socket, { type: 'response.completed', response: response([answer], 'resp_2') });
        }
      },
    ]);
    const model = new OpenAIHostedMultiAgentModel(new OpenAI({ apiKey: 'sk-test', baseURL: service.baseURL }), 'gpt-5.6-sol');
    try {
      const boundary = await model.getResponse(request());
      const final = await model.getResponse(request({ input: [...boundary.output, { type: 'function_call_result', callId: 'call_1', name: 'lookup', status: 'completed', output: { type: 'text', text: 'ok' } }] }));
      const [, injection, continuation] = service.frames[0]!;
      expect(injection?.type).toBe('response.inject');
      expect(continuation).toMatchObject({ type: 'response.create', previous_response_id: 'resp_1', input: injection?.input, multi_agent: { enabled: true } });
      expect(final).toMatchObject({ responseId: 'resp_2', output: [{ type: 'message', id: 'msg_1' }] });
      // Two requests: the completed response and its continuation.
      expect(final.usage).toMatchObject({ requests: 2, inputTokens: 18, outputTokens: 6 });
    } finally {
      await model.close();
    }
  });
});
