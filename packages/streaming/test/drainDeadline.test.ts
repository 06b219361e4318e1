import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, run, type StreamedRunResult } from '@baton/core';
import { SSEDrainTimeoutError, notify, pipeToNodeResponse, streamingTool, toSSE } from '../src/index.js';
import { within } from './helpers.js';

/**
 * The attack: a client opens the stream, then stops reading and keeps the connection open. Once the
 * socket and the run's bounded buffer are full the run is paused by backpressure — for ever,
 * holding its model connection, tools and memory. With a drain deadline the run is cancelled.
 */

/** A streaming tool that reports `steps` large progress events. */
function chattyAgent(steps: number, size: number) {
  const state = { produced: 0 };
  const chatty = streamingTool({
    name: 'chatty',
    description: '',
    parameters: z.object({}),
    async *execute() {
      for (let i = 1; i <= steps; i++) {
        state.produced = i;
        yield notify({ i, padding: 'x'.repeat(size) });
      }
      return 'done';
    },
  });
  const model = new ScriptedModel([[functionCall('chatty', {}, { callId: 'c1' })], [assistantMessage('finished')]]);
  return { state, agent: new Agent({ name: 'Chatty', model, tools: [chatty] }) };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => (server.closeAllConnections(), new Promise((resolve) => server.close(resolve)))));
});

describe('a client that stops reading does not hold its run for ever', () => {
  it('toSSE: no read for drainTimeoutMs cancels the run and fails the stream with SSEDrainTimeoutError', async () => {
    const { state, agent } = chattyAgent(1_000, 10);
    const result = await run(agent, 'go', { stream: true, streamBufferSize: 4 });
    const reader = toSSE(result, { drainTimeoutMs: 150 }).getReader();
    await reader.read(); // one frame, then the client goes quiet
    await within(result.completed, 3_000, 'the run was not cancelled');
    expect(result.cancelled).toBe(true);
    expect(state.produced).toBeLessThan(1_000);
    const error = await reader.read().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(SSEDrainTimeoutError);
    expect((error as Error).message).toMatch(/read nothing for 150 ms .*drainTimeoutMs.*cancelled/);
  });

  it('toSSE: a client that reads slowly but keeps reading is not cut off', async () => {
    const { agent } = chattyAgent(20, 10);
    const result = await run(agent, 'go', { stream: true, streamBufferSize: 2 });
    const reader = toSSE(result, { drainTimeoutMs: 200 }).getReader();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(text).toContain('"event_type":"run_end"');
    expect(result.cancelled).toBe(false);
  });

  it('pipeToNodeResponse: a socket that does not drain within drainTimeoutMs cancels the run and closes the connection', async () => {
    const { state, agent } = chattyAgent(2_000, 64 * 1024);
    const runs: StreamedRunResult<any, any>[] = [];
    const piped: Promise<void>[] = [];
    const responses: ServerResponse[] = [];
    const server = createServer(async (_req, res) => {
      responses.push(res);
      const result = await run(agent, 'go', { stream: true, streamBufferSize: 4 });
      runs.push(result);
      piped.push(pipeToNodeResponse(result, res, { drainTimeoutMs: 300 }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    const client = request({ port, host: '127.0.0.1', path: '/' }, (res) => {
      res.pause(); // reads nothing more: the socket fills up
      res.on('error', () => undefined);
    });
    client.on('error', () => undefined);
    client.end();
    while (runs.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await within(runs[0]!.completed, 10_000, 'the run was not cancelled');
    expect(runs[0]!.cancelled).toBe(true);
    expect(state.produced).toBeLessThan(2_000);
    await within(piped[0]!, 1_000, 'pipeToNodeResponse did not return');
    // The server let go of the connection (the client, still not reading, finds out when it reads).
    expect(responses[0]!.destroyed).toBe(true);
    client.destroy();
  });
});
