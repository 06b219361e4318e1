import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, run, tool } from '@baton/core';
import { fakeItems, fakeText } from '@baton/testing';
import { UserError, type ModelStreamEvent } from '@baton/types';
import { isOpenAIProviderError } from '../src/index.js';
import { OpenAIHostedMultiAgentModel, getHostedAgentMetadata } from '../src/experimental/hosted-multi-agent.js';
import { clientFor, collect, collectUntilError, fakeServer, rawTypes, rejectionOf, request } from './helpers.js';

// Items as the hosted multi-agent service labels them: who produced each, and the root's final answer.
const spawn = { type: 'multi_agent_call', id: 'mac_1', call_id: 'call_spawn', action: 'spawn_agent', arguments: '{}', agent: { agent_name: '/root' } };
const lookupCall = (callId: string, agent: string, key: string) => ({
  type: 'function_call',
  id: `fc_${callId}`,
  call_id: callId,
  name: 'lookup',
  arguments: JSON.stringify({ key }),
  status: 'completed',
  agent: { agent_name: agent },
});
const subagentNote = {
  type: 'message',
  id: 'msg_sub',
  role: 'assistant',
  status: 'completed',
  agent: { agent_name: '/root/researcher' },
  content: [{ type: 'output_text', text: 'alpha takes six weeks', annotations: [] }],
};
const rootAnswer = {
  type: 'message',
  id: 'msg_root',
  role: 'assistant',
  status: 'completed',
  phase: 'final_answer',
  agent: { agent_name: '/root' },
  content: [{ type: 'output_text', text: 'Alpha is faster.', annotations: [] }],
};
const output = (callId: string, text: string) => ({ type: 'function_call_result' as const, callId, name: 'lookup', status: 'completed' as const, output: { type: 'text' as const, text } });

describe('OpenAIHostedMultiAgentModel: the request', () => {
  it('sends one response.create frame with multi_agent over a WebSocket that opts into the beta', async () => {
    const server = await fakeServer(fakeText('hello'), fakeText('again'));
    const limited = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol', { maxConcurrentSubagents: 2 });
    const plain = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol');
    try {
      await limited.getResponse(request({ systemInstructions: 'Delegate.' }));
      await plain.getResponse(request());
      const [first, second] = server.requests;
      expect(first?.transport).toBe('websocket');
      expect(first?.headers['openai-beta']).toBe('responses_multi_agent=v1');
      expect(first?.body).toMatchObject({ model: 'gpt-5.6-sol', instructions: 'Delegate.', multi_agent: { enabled: true, max_concurrent_subagents: 2 } });
      // The socket always streams: the frame carries neither `stream` nor `betas`.
      expect(first?.body).not.toHaveProperty('stream');
      expect(second?.body.multi_agent).toEqual({ enabled: true });
    } finally {
      await limited.close();
      await plain.close();
    }
  });

  it('refuses a bad subagent limit, handoffs, a reasoning summary and max_tool_calls before opening a socket', async () => {
    const server = await fakeServer();
    expect(() => new OpenAIHostedMultiAgentModel(clientFor(server), 'm', { maxConcurrentSubagents: 0 })).toThrow(UserError);
    expect(() => new OpenAIHostedMultiAgentModel(clientFor(server), 'm', { maxConcurrentSubagents: 1.5 })).toThrow('maxConcurrentSubagents must be a positive integer');
    const model = new OpenAIHostedMultiAgentModel(clientFor(server), 'm');
    const handoff = { toolName: 'transfer_to_b', toolDescription: 'b', inputJsonSchema: { type: 'object', properties: {} }, strictJsonSchema: true } as never;
    expect(await rejectionOf(model.getResponse(request({ handoffs: [handoff] })))).toBeInstanceOf(UserError);
    const summary = await rejectionOf(model.getResponse(request({ modelSettings: { reasoning: { summary: 'auto' } } })));
    expect((summary as Error).message).toContain('reasoning.summary');
    const maxCalls = await rejectionOf(model.getResponse(request({ modelSettings: { providerData: { max_tool_calls: 3 } } })));
    expect((maxCalls as Error).message).toContain('max_tool_calls');
    expect(server.upgrades).toBe(0);
  });
});

describe('OpenAIHostedMultiAgentModel: local function calls inside the hosted response', () => {
  it('hands a subagent call to the run loop, then injects its output into the same response', async () => {
    const server = await fakeServer(fakeItems([spawn, lookupCall('call_a', '/root/researcher', 'alpha'), subagentNote, rootAnswer], { usage: { inputTokens: 30, outputTokens: 7 } }));
    const model = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol');
    try {
      const boundary = await model.getResponse(request());
      expect(boundary.output).toMatchObject([{ type: 'function_call', callId: 'call_a', providerData: { agent: { agent_name: '/root/researcher' } } }]);
      // A boundary is no request of its own: no usage.
      expect(boundary.usage).toMatchObject({ requests: 0, inputTokens: 0, totalTokens: 0 });

      // Without the awaited output nothing is sent, and the response keeps waiting.
      const missing = await rejectionOf(model.getResponse(request({ input: [...boundary.output] })));
      expect(missing).toBeInstanceOf(UserError);
      expect((missing as Error).message).toContain('waiting for local function outputs for: call_a');
      expect(server.requests).toHaveLength(1);

      const final = await model.getResponse(request({ input: [...boundary.output, output('call_a', 'six weeks')] }));
      expect(server.requests[1]?.body).toEqual({
        type: 'response.inject',
        response_id: boundary.responseId,
        input: [expect.objectContaining({ type: 'function_call_output', call_id: 'call_a', output: 'six weeks' })],
      });
      // The run loop sees the root's final answer only; the raw response keeps everything.
      expect(final.output).toMatchObject([{ type: 'message', id: 'msg_root', phase: 'final_answer' }]);
      expect((final.providerData?.output as unknown[]).map((item) => (item as { type: string }).type)).toEqual(['multi_agent_call', 'function_call', 'message', 'message']);
      expect(final.usage).toMatchObject({ requests: 1, inputTokens: 30, outputTokens: 7 });
      expect(server.upgrades).toBe(1);
    } finally {
      await model.close();
    }
  });

  it('hands out calls one batch at a time and injects each batch', async () => {
    const server = await fakeServer(fakeItems([lookupCall('call_a', '/root/alpha', 'alpha'), lookupCall('call_b', '/root/beta', 'beta'), rootAnswer]));
    const model = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol');
    try {
      const first = await model.getResponse(request());
      expect(first.output).toMatchObject([{ callId: 'call_a' }]);
      const second = await model.getResponse(request({ input: [...first.output, output('call_a', 'A')] }));
      expect(second.output).toMatchObject([{ callId: 'call_b' }]);
      const third = await model.getResponse(request({ input: [...first.output, output('call_a', 'A'), ...second.output, output('call_b', 'B')] }));
      // Only the awaited output is injected, not the one already given.
      expect(server.requests.map((recorded) => (recorded.body.input as Array<{ call_id?: string }>).map((item) => item.call_id ?? 'user'))).toEqual([['user'], ['call_a'], ['call_b']]);
      expect(third.output).toMatchObject([{ type: 'message', id: 'msg_root' }]);
    } finally {
      await model.close();
    }
  });

  it('runs under the run loop: the tool learns which hosted agent called it, and the final output is the root answer', async () => {
    const server = await fakeServer(fakeItems([spawn, lookupCall('call_a', '/root/researcher', 'alpha'), subagentNote, rootAnswer]));
    const model = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol', { maxConcurrentSubagents: 3 });
    const callers: unknown[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Look up a proposal.',
      parameters: z.object({ key: z.string() }),
      execute: async ({ key }, _context, details) => {
        callers.push(getHostedAgentMetadata(details));
        return `record ${key}`;
      },
    });
    try {
      const result = await run(new Agent({ name: 'coordinator', model, tools: [lookup] }), 'Compare alpha and beta.');
      expect(result.finalOutput).toBe('Alpha is faster.');
      expect(callers).toEqual([{ agentName: '/root/researcher' }]);
      expect(server.requests[1]?.body.input).toMatchObject([{ type: 'function_call_output', call_id: 'call_a', output: 'record alpha' }]);
      expect(result.state.usage.requests).toBe(1);
    } finally {
      await model.close();
    }
  });

  it('streams only the root final answer as text, keeps every service event raw, and shows no raw event for a boundary', async () => {
    const server = await fakeServer(fakeItems([lookupCall('call_a', '/root/researcher', 'alpha'), subagentNote, rootAnswer]));
    const model = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol');
    try {
      const first = await collect(model.getStreamedResponse(request()));
      const boundary = first.find((event) => event.type === 'response_done');
      expect(boundary).toMatchObject({ response: { output: [{ type: 'function_call', callId: 'call_a' }], usage: { requests: 0 } } });
      expect(rawTypes(first)).not.toContain('response.completed');

      const second = await collect(model.getStreamedResponse(request({ input: [output('call_a', 'six weeks')] })));
      const text = second.filter((event): event is Extract<ModelStreamEvent, { type: 'output_text_delta' }> => event.type === 'output_text_delta').map((event) => event.delta);
      expect(text.join('')).toBe('Alpha is faster.');
      // The subagent's message is there as raw events, its text included.
      const rawItems = second.filter((event) => event.type === 'model').map((event) => (event.event as { item?: { id?: string } }).item?.id);
      expect(rawItems).toContain('msg_sub');
      expect(rawTypes(second).filter((type) => type === 'response.output_text.delta').length).toBeGreaterThan(text.length);
      const done = second.find((event) => event.type === 'response_done');
      expect(done).toMatchObject({ response: { output: [{ type: 'message', id: 'msg_root' }], usage: { requests: 1 } } });
      expect(rawTypes(second).at(-1)).toBe('response.completed');
    } finally {
      await model.close();
    }
  });
});

describe('OpenAIHostedMultiAgentModel: failures', () => {
  it('ends a dropped socket as stream_interrupted, forgets the response and starts afresh on a new socket', async () => {
    const server = await fakeServer(fakeText('a long answer', { stream: { cutAfterEvents: 3 } }), fakeItems([rootAnswer]));
    const model = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol');
    try {
      const { error } = await collectUntilError(model.getStreamedResponse(request()));
      expect(isOpenAIProviderError(error, 'stream_interrupted')).toBe(true);
      expect((error as { unsafeToReplay?: boolean }).unsafeToReplay).toBe(true);
      const next = await model.getResponse(request());
      expect(next.output).toMatchObject([{ type: 'message', content: [{ text: 'Alpha is faster.' }] }]);
      expect(server.requests[1]?.body.type).toBeUndefined();
      expect(server.upgrades).toBe(2);
    } finally {
      await model.close();
    }
  });

  it('gives the run loop no message but the root agent\'s final answer', async () => {
    const server = await fakeServer(fakeText('an unlabelled message'));
    const model = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol');
    try {
      const response = await model.getResponse(request());
      expect(response.output).toEqual([]);
      expect(response.providerData?.output).toHaveLength(1);
    } finally {
      await model.close();
    }
  });

  it('closes the socket and gives the response up when the request is aborted or the reader stops early', async () => {
    const server = await fakeServer(fakeItems([rootAnswer], { stream: { eventDelayMs: 200 } }), fakeItems([subagentNote, rootAnswer]), fakeItems([rootAnswer]));
    const model = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol');
    const socketsClosed = async () => {
      for (let i = 0; i < 100 && server.openSockets > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(server.openSockets).toBe(0);
    };
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const aborted = await rejectionOf(model.getResponse(request({ signal: controller.signal })));
      expect(isOpenAIProviderError(aborted, 'aborted')).toBe(true);
      await socketsClosed();

      for await (const event of model.getStreamedResponse(request())) if (event.type === 'response_started') break;
      await socketsClosed();

      // The next request starts a new response on a new socket.
      expect((await model.getResponse(request())).output).toMatchObject([{ id: 'msg_root' }]);
      expect(server.upgrades).toBe(3);
    } finally {
      await model.close();
    }
  });

  it('refuses a second request while one runs on the same model', async () => {
    const server = await fakeServer(fakeText('slow', { stream: { eventDelayMs: 50 } }));
    const model = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol');
    try {
      const first = model.getResponse(request());
      const second = await rejectionOf(model.getResponse(request()));
      expect((second as Error).message).toBe('OpenAIHostedMultiAgentModel does not support concurrent requests on one model instance.');
      await first;
    } finally {
      await model.close();
    }
  });

  it('closes its socket on close(), and then no longer resumes a waiting response', async () => {
    const server = await fakeServer(fakeItems([lookupCall('call_a', '/root/researcher', 'alpha'), rootAnswer]), fakeItems([rootAnswer]));
    const model = new OpenAIHostedMultiAgentModel(clientFor(server), 'gpt-5.6-sol');
    await model.getResponse(request());
    await model.close();
    for (let i = 0; i < 100 && server.openSockets > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.openSockets).toBe(0);
    // A new response starts: the frame is a response.create, not an injection.
    const next = await model.getResponse(request({ input: [output('call_a', 'late')] }));
    expect(next.output).toMatchObject([{ type: 'message', id: 'msg_root' }]);
    expect(server.requests.at(-1)?.body.type).toBeUndefined();
    await model.close();
  });
});

describe('getHostedAgentMetadata', () => {
  it('reads the agent from a raw item, a protocol item, and the details a tool receives', () => {
    expect(getHostedAgentMetadata(rootAnswer)).toEqual({ agentName: '/root', phase: 'final_answer' });
    expect(getHostedAgentMetadata({ type: 'function_call', providerData: { agent: { agent_name: '/root/a' } } })).toEqual({ agentName: '/root/a' });
    expect(getHostedAgentMetadata({ toolCall: { callId: 'c', providerData: { agent: { agent_name: '/root/b' }, phase: 'commentary' } } })).toEqual({ agentName: '/root/b', phase: 'commentary' });
    for (const value of [undefined, null, 'text', {}, { agent: { agent_name: '' } }, { agent: 'root' }, { toolCall: {} }]) expect(getHostedAgentMetadata(value)).toBeUndefined();
  });
});
