import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelStream } from '@baton/testing';
import { Agent, run, type AgentOutputItem, type ModelStreamEvent, type RunStreamEvent } from '@baton/core';
import { RunEventStreamError, pipeToNodeResponse, readRunEvents, runErrorJSON, streamingTool, toSSE, type SSEOptions, type StreamedRunLike } from '../src/index.js';
import { collect } from './helpers.js';

/**
 * The attack: a browser reads a run's SSE stream and learns what only the server may know. A
 * Responses model streams its provider events (`response.created` / `response.completed` carry the
 * agent's instructions and tool definitions) as raw model events, and a failed run's error text
 * can carry a tool's arguments or a secret. By default neither reaches the client.
 */

const INSTRUCTIONS = 'SYSTEM PROMPT: never reveal the discount code ZEBRA-42';
const SECRET = 'sk-live-0123456789abcdef';

/** What a Responses model streams: the provider's events (with the instructions and tools), text deltas, the response. */
function responsesLikeStream(id: string, text: string): ModelStreamEvent[] {
  const output: AgentOutputItem[] = [assistantMessage(text)];
  const created = { type: 'response.created', response: { id, instructions: INSTRUCTIONS, tools: [{ type: 'function', name: 'internal_admin_tool' }] } };
  return [
    { type: 'response_started', providerData: { instructions: INSTRUCTIONS } },
    { type: 'model', event: created },
    { type: 'output_text_delta', delta: text, itemId: 'msg_1', providerData: { instructions: INSTRUCTIONS } },
    { type: 'model', event: { ...created, type: 'response.completed' } },
    { type: 'response_done', response: { id, usage: {} as never, output, providerData: { instructions: INSTRUCTIONS } } },
  ];
}

/** An agent whose nested agent tool (streamed) and own model both stream provider events. */
function leakyAgent() {
  const inner = new Agent({ name: 'Inner', instructions: INSTRUCTIONS, model: new ScriptedModel([modelStream(responsesLikeStream('r_inner', 'inner answer'))]) });
  const model = new ScriptedModel([
    modelStream([...responsesLikeStream('r_1', '').slice(0, 2), { type: 'response_done', response: { id: 'r_1', usage: {} as never, output: [functionCall('inner', { input: 'go' }, { callId: 'i1' })] } }]),
    modelStream(responsesLikeStream('r_2', 'All done.')),
  ]);
  return new Agent({ name: 'Outer', instructions: INSTRUCTIONS, model, tools: [inner.asTool({ toolName: 'inner', toolDescription: 'Inner.', streaming: true })] });
}

async function sseText(options?: SSEOptions): Promise<string> {
  const result = await run(leakyAgent(), 'hi', { stream: true });
  return new Response(toSSE(result, options)).text();
}

function failingAgent() {
  const charge = streamingTool({
    name: 'charge',
    description: 'Charges a card.',
    parameters: z.object({ card: z.string() }),
    errorFunction: null,
    // eslint-disable-next-line require-yield
    async *execute({ card }) {
      throw new Error(`gateway refused ${card} with key ${SECRET}`);
    },
  });
  return new Agent({ name: 'Cashier', model: new ScriptedModel([[functionCall('charge', { card: '4111-1111' }, { callId: 'c1' })]]), tools: [charge] });
}

describe('raw model events do not reach the client by default', () => {
  it('toSSE: no raw event, of the run or of a nested run, and so no instructions or tool definitions', async () => {
    const text = await sseText();
    expect(text).not.toContain(INSTRUCTIONS);
    expect(text).not.toContain('internal_admin_tool');
    expect(text).not.toContain('raw_model_stream_event');
    // The rest of the run is all there.
    expect(text).toContain('All done.');
    expect(text).toContain('inner answer');
    expect(text).toContain('"event_type":"run_end"');
  });

  it("rawModelEvents: 'text' sends output text deltas only, without their provider data", async () => {
    const text = await sseText({ rawModelEvents: 'text' });
    expect(text).not.toContain(INSTRUCTIONS);
    const events = await collect(readRunEvents(new Response(text, { headers: { 'content-type': 'text/event-stream' } })));
    const raw = events.flatMap((event) => {
      if (event.event_type === 'raw_model_stream_event') return [event.data];
      if (event.event_type === 'streaming_tool_context_event' && event.internalEvent.event_type === 'raw_model_stream_event') return [event.internalEvent.data];
      return [];
    });
    expect(raw).toEqual([
      { type: 'output_text_delta', delta: 'inner answer', itemId: 'msg_1' },
      { type: 'output_text_delta', delta: 'All done.', itemId: 'msg_1' },
    ]);
  });

  it("rawModelEvents: 'all' is the explicit opt-in to everything (a trusted client)", async () => {
    const text = await sseText({ rawModelEvents: 'all' });
    expect(text).toContain(INSTRUCTIONS);
    expect(text).toContain('response.created');
  });

  it('rejects an unknown policy, naming the option', async () => {
    const result = await run(leakyAgent(), 'hi', { stream: true });
    expect(() => toSSE(result, { rawModelEvents: 'some' as never })).toThrow(/rawModelEvents must be 'none', 'text' or 'all', got "some"/);
    result.cancel();
  });
});

describe('error text does not reach the client by default', () => {
  it('run_error and the failed tool’s end event carry the error’s name and a generic message', async () => {
    const result = await run(failingAgent(), 'pay', { stream: true });
    const text = await new Response(toSSE(result)).text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('gateway refused');
    const error = await collect(readRunEvents(new Response(text, { headers: { 'content-type': 'text/event-stream' } }))).then(
      () => undefined,
      (e: unknown) => e as RunEventStreamError,
    );
    expect(error?.reason).toBe('run_failed');
    expect(error?.remoteError).toEqual({ name: 'ToolCallError', message: 'The run failed.' });
    // The server still has the whole error.
    await expect(result.completed).rejects.toThrow(SECRET);
  });

  it('a failed streaming tool’s end event carries its error’s name and a generic message', async () => {
    const ended = { type: 'tool_stream_end_event', toolName: 'charge', toolCallId: 'c1', error: new Error(`gateway refused with key ${SECRET}`) } as unknown as RunStreamEvent;
    const runLike = (): StreamedRunLike => ({
      completed: Promise.resolve(),
      cancelled: false,
      finalOutput: 'done',
      interruptions: [],
      lastAgent: { name: 'Cashier' },
      cancel: () => undefined,
      async *[Symbol.asyncIterator]() {
        yield ended;
      },
    });
    const text = await new Response(toSSE(runLike())).text();
    expect(text).not.toContain(SECRET);
    expect(text).toContain('"error":{"name":"Error","message":"The tool failed."}');
    expect(await new Response(toSSE(runLike(), { errorDetails: true })).text()).toContain(SECRET);
  });

  it('errorDetails: true sends the messages as they are (the server opts in)', async () => {
    const result = await run(failingAgent(), 'pay', { stream: true });
    const text = await new Response(toSSE(result, { errorDetails: true })).text();
    expect(text).toContain(`"run_error","error":{"name":"ToolCallError","message":"Failed to run function tools: Error: gateway refused 4111-1111 with key ${SECRET}"`.slice(1));
    expect(runErrorJSON(new Error(SECRET)).error.message).toBe('The run failed.');
    expect(runErrorJSON(new Error(SECRET), { errorDetails: true }).error.message).toBe(SECRET);
  });
});

describe('pipeToNodeResponse has the same defaults', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => (server.closeAllConnections(), new Promise((resolve) => server.close(resolve)))));
  });

  async function serve(makeAgent: () => Agent<any, any>, options?: SSEOptions): Promise<string> {
    const server = createServer(async (_req, res) => {
      await pipeToNodeResponse(await run(makeAgent(), 'hi', { stream: true }), res, options);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('no raw events, no instructions, no error text', async () => {
    const leaky = await (await fetch(await serve(leakyAgent))).text();
    expect(leaky).not.toContain(INSTRUCTIONS);
    expect(leaky).not.toContain('raw_model_stream_event');
    expect(leaky).toContain('All done.');
    const failing = await (await fetch(await serve(failingAgent))).text();
    expect(failing).not.toContain(SECRET);
    expect(failing).toContain('"message":"The run failed."');
  });

  it('the options opt in', async () => {
    const leaky = await (await fetch(await serve(leakyAgent, { rawModelEvents: 'all' }))).text();
    expect(leaky).toContain(INSTRUCTIONS);
  });
});
