import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, run, type StreamedRunResult } from '@baton/core';
import { RunEventStreamError, notify, pipeToNodeResponse, readRunEvents, streamingTool } from '../src/index.js';
import { aborted, collect, deferred, sleep, within } from './helpers.js';

interface Served {
  url: string;
  runs: StreamedRunResult<any, any>[];
  piped: Promise<void>[];
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** A real node:http server that streams one run of `makeAgent()` per request. */
async function serve(makeAgent: () => Agent<any, any>, streamBufferSize?: number): Promise<Served> {
  const runs: StreamedRunResult<any, any>[] = [];
  const piped: Promise<void>[] = [];
  const server = createServer((req, res) => {
    const handled = (async () => {
      const result = await run(makeAgent(), req.url ?? '/', { stream: true, ...(streamBufferSize ? { streamBufferSize } : {}) });
      runs.push(result);
      await pipeToNodeResponse(result, res, { headers: { 'x-demo': 'yes' } });
    })();
    piped.push(handled);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, runs, piped };
}

/** An agent whose streaming tool reports progress, then waits until `release` (or the run's abort). */
function waitingAgent() {
  const started = deferred<AbortSignal>();
  const release = deferred();
  let finishedCleanly = false;
  let cleanedUp = false;
  const make = () => {
    const job = streamingTool({
      name: 'job',
      description: '',
      parameters: z.object({}),
      async *execute(_input, _ctx, details) {
        try {
          started.resolve(details.signal);
          yield notify({ pct: 10 });
          await Promise.race([release.promise, aborted(details.signal)]);
          details.signal.throwIfAborted();
          yield notify({ pct: 100 });
          finishedCleanly = true;
          return 'job done';
        } finally {
          cleanedUp = true;
        }
      },
    });
    const model = new ScriptedModel([[functionCall('job', {}, { callId: 'j1' })], [assistantMessage('The job is done.')]]);
    return new Agent({ name: 'Worker', model, tools: [job] });
  };
  return { make, started: started.promise, release, state: () => ({ finishedCleanly, cleanedUp }) };
}

describe('pipeToNodeResponse with a real node:http server and fetch', () => {
  it('streams the whole run as text/event-stream that readRunEvents decodes', async () => {
    const job = waitingAgent();
    job.release.resolve();
    const served = await serve(job.make);
    const response = await fetch(`${served.url}/go`);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-demo')).toBe('yes');
    const events = await collect(readRunEvents(response));
    expect(events.filter((e) => e.event_type === 'notify_stream_event').map((e) => (e as { data: unknown }).data)).toEqual([{ pct: 10 }, { pct: 100 }]);
    expect(events.at(-1)).toMatchObject({ event_type: 'run_end', status: 'completed', finalOutput: 'The job is done.' });
    await Promise.all(served.piped);
    expect(served.runs[0]!.cancelled).toBe(false);
  });

  it('a client that aborts its fetch mid-tool cancels the run on the server', async () => {
    const job = waitingAgent();
    const served = await serve(job.make);
    const controller = new AbortController();
    const response = await fetch(`${served.url}/go`, { signal: controller.signal });
    const got: string[] = [];
    const error = await (async () => {
      for await (const event of readRunEvents(response, { signal: controller.signal })) {
        got.push(event.event_type);
        if (event.event_type === 'notify_stream_event') controller.abort();
      }
    })().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(RunEventStreamError);
    expect((error as RunEventStreamError).reason).toBe('aborted');

    const signal = await job.started;
    await within(aborted(signal), 2000, 'the server-side tool was not aborted when the client went away');
    await within(Promise.all(served.piped), 2000, 'pipeToNodeResponse did not finish');
    const result = served.runs[0]!;
    await within(result.completed, 2000, 'the run did not settle');
    expect(result.cancelled).toBe(true);
    expect(job.state().finishedCleanly).toBe(false);
    await within(
      (async () => {
        while (!job.state().cleanedUp) await sleep(5);
      })(),
      1000,
      'the tool’s finally did not run',
    );
  });

  it('breaking out of readRunEvents (no AbortController) closes the connection and cancels the run too', async () => {
    const job = waitingAgent();
    const served = await serve(job.make);
    const response = await fetch(`${served.url}/go`);
    for await (const event of readRunEvents(response)) if (event.event_type === 'notify_stream_event') break;
    await within(aborted(await job.started), 2000, 'the server-side tool was not aborted');
    await within(Promise.all(served.piped), 2000, 'pipeToNodeResponse did not finish');
    expect(served.runs[0]!.cancelled).toBe(true);
  });

  it('a client that stops reading pauses the run (socket backpressure → drain → the run’s buffer)', async () => {
    let steps = 0;
    const chunk = 'x'.repeat(256 * 1024);
    const make = () => {
      const flood = streamingTool({
        name: 'flood',
        description: '',
        parameters: z.object({}),
        async *execute() {
          for (let i = 1; i <= 200; i++) {
            steps = i;
            yield notify({ i, chunk });
          }
          return 'flooded';
        },
      });
      const model = new ScriptedModel([[functionCall('flood', {}, { callId: 'f1' })], [assistantMessage('ok')]]);
      return new Agent({ name: 'Flood', model, tools: [flood] });
    };
    const served = await serve(make, 2);
    const response = await fetch(`${served.url}/go`);
    const reader = response.body!.getReader();
    await reader.read(); // the first bytes, then the client stops reading
    let last = -1;
    while (steps !== last) {
      last = steps;
      await sleep(100);
    }
    expect(steps).toBeLessThan(100); // 200 × 256 KiB would be 50 MiB; the socket and the buffer hold far less
    let seenEnd = false;
    let tail = '';
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      tail = (tail + new TextDecoder().decode(next.value)).slice(-200);
      if (tail.includes('"event_type":"run_end"')) seenEnd = true;
    }
    expect(steps).toBe(200);
    expect(seenEnd).toBe(true);
    await Promise.all(served.piped);
  });
});
