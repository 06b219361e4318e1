import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelError } from '@baton/testing';
import { Agent, run, tool, type RunStreamEvent, type StreamedRunResult } from '@baton/core';
import {
  RunEventStreamError,
  notify,
  readRunEvents,
  streamingTool,
  toEventJSON,
  toSSE,
  toSSEResponse,
  type RunEventJSON,
  type StreamedRunLike,
} from '../src/index.js';
import { aborted, collect, deferred, sleep, within } from './helpers.js';

/** Orchestrator with a streaming tool and a nested streaming agent tool (with its own streaming tool). */
function scenario() {
  const progress = streamingTool({
    name: 'progress',
    description: '',
    parameters: z.object({}),
    async *execute() {
      yield notify({ pct: 50, note: 'half way — 半分 ✓' }, 'progress');
      yield notify({ pct: 100 }, 'progress');
      return 'progress done';
    },
  });
  const lookup = streamingTool({
    name: 'lookup',
    description: '',
    parameters: z.object({ q: z.string() }),
    async *execute({ q }) {
      yield notify(`looking up ${q}`);
      return `found ${q}`;
    },
  });
  const innerModel = new ScriptedModel([[functionCall('lookup', { q: 'x' }, { callId: 'l1' })], [assistantMessage('inner: found x')]]);
  const inner = new Agent({ name: 'Inner', model: innerModel, tools: [lookup] });
  const model = new ScriptedModel([
    [functionCall('progress', {}, { callId: 'p1' }), functionCall('inner', { input: 'find x' }, { callId: 'i1' })],
    [assistantMessage('All done.\nTwo lines, "quotes" and \\ backslashes.')],
  ]);
  return new Agent({ name: 'Outer', model, tools: [progress, inner.asTool({ toolName: 'inner', streaming: true })] });
}

/** The run as the transports see it, recording the events they read. */
function tap(result: StreamedRunResult<any, any>): { run: StreamedRunLike; seen: RunStreamEvent[] } {
  const seen: RunStreamEvent[] = [];
  const runLike: StreamedRunLike = {
    get completed() {
      return result.completed;
    },
    get cancelled() {
      return result.cancelled;
    },
    get finalOutput() {
      return result.finalOutput;
    },
    get interruptions() {
      return result.interruptions;
    },
    get lastAgent() {
      return result.lastAgent;
    },
    cancel: () => result.cancel(),
    [Symbol.asyncIterator]() {
      const iterator = result[Symbol.asyncIterator]();
      return {
        next: async () => {
          const next = await iterator.next();
          if (!next.done) seen.push(next.value);
          return next;
        },
        return: () => iterator.return!(),
      };
    },
  };
  return { run: runLike, seen };
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A byte stream from `bytes` in chunks of `size` (or the sizes `sizes` cycles through). */
function chunked(bytes: Uint8Array, sizes: number[]): ReadableStream<Uint8Array> {
  let offset = 0;
  let turn = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const size = sizes[turn++ % sizes.length]!;
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

const sseResponse = (body: string | Uint8Array<ArrayBuffer>, init: ResponseInit = {}) =>
  new Response(body, { headers: { 'content-type': 'text/event-stream' }, ...init });

async function failureOf(events: AsyncIterable<unknown>): Promise<{ error: RunEventStreamError; got: unknown[] }> {
  const got: unknown[] = [];
  try {
    for await (const event of events) got.push(event);
  } catch (error) {
    expect(error).toBeInstanceOf(RunEventStreamError);
    return { error: error as RunEventStreamError, got };
  }
  throw new Error(`expected a RunEventStreamError, the stream gave ${got.length} events and ended`);
}

async function recordedRun() {
  const result = await run(scenario(), 'go', { stream: true });
  const { run: runLike, seen } = tap(result);
  const bytes = await bytesOf(toSSE(runLike, { heartbeatMs: 0 }));
  return { result, seen, bytes };
}

describe('SSE round trip', () => {
  it('decodes to exactly the JSON of the events the server read, then run_end (raw model events opted in)', async () => {
    const result = await run(scenario(), 'go', { stream: true });
    const { run: runLike, seen } = tap(result);
    const response = toSSEResponse(runLike, { rawModelEvents: 'all' });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('no-cache');
    const decoded = await collect(readRunEvents(response));

    expect(seen.length).toBeGreaterThan(10);
    expect(decoded.slice(0, -1)).toEqual(seen.map((e) => JSON.parse(JSON.stringify(toEventJSON(e)))));
    expect(decoded.at(-1)).toEqual({
      event_type: 'run_end',
      type: 'run_end',
      status: 'completed',
      finalOutput: 'All done.\nTwo lines, "quotes" and \\ backslashes.',
      interruptions: [],
      lastAgent: { name: 'Outer' },
    });
    const types = new Set(decoded.map((e) => e.event_type));
    for (const type of ['raw_model_stream_event', 'run_item_stream_event', 'streaming_tool_context_event', 'notify_stream_event', 'tool_stream_start_event', 'tool_stream_end_event']) {
      expect(types).toContain(type);
    }
    for (const event of decoded) expect(event.type).toBe(event.event_type);
  });

  it('references agents by name only, at every depth', async () => {
    const { bytes } = await recordedRun();
    const decoded = await collect(readRunEvents(sseResponse(bytes)));
    const agents: unknown[] = [];
    const walk = (value: unknown, key?: string) => {
      if (typeof value !== 'object' || value === null) return;
      if (key === 'agent' || key === 'lastAgent') agents.push(value);
      for (const [k, v] of Object.entries(value)) walk(v, k);
    };
    decoded.forEach((e) => walk(e));
    expect(agents.length).toBeGreaterThan(5);
    for (const agent of agents) expect(Object.keys(agent as object)).toEqual(['name']);
    expect(agents).toContainEqual({ name: 'Inner' });
    const nested = decoded.find(
      (e) => e.event_type === 'streaming_tool_context_event' && e.internalEvent.event_type === 'run_item_stream_event' && e.internalEvent.name === 'tool_called',
    );
    expect(nested).toMatchObject({ toolName: 'inner', toolCallId: 'i1', internalEvent: { item: { type: 'tool_call_item', agent: { name: 'Inner' } } } });
  });

  it('sends data-only frames with ids (a browser EventSource’s onmessage sees every one)', async () => {
    const { bytes } = await recordedRun();
    const raw = text(bytes);
    expect(raw).not.toMatch(/^event:/m);
    const frames = raw.split('\n\n').filter(Boolean);
    frames.forEach((frame, i) => expect(frame).toMatch(new RegExp(`^id: ${i + 1}\\ndata: \\{"event_type":"[a-z_]+"`)));
  });

  it.each([
    ['1-byte chunks', [1]],
    ['odd chunk sizes', [3, 7, 1, 64, 2]],
    ['large chunks', [4096]],
  ])('parses incrementally in %s (multi-byte characters split anywhere)', async (_name, sizes) => {
    const { bytes } = await recordedRun();
    const whole = await collect(readRunEvents(sseResponse(bytes)));
    const split = await collect(readRunEvents(chunked(bytes, sizes)));
    expect(split).toEqual(whole);
    expect(JSON.stringify(split)).toContain('半分 ✓');
  });

  it.each([
    ['\\r\\n', '\r\n'],
    ['\\r', '\r'],
  ])('accepts %s line endings (split between \\r and \\n too)', async (_name, eol) => {
    const { bytes } = await recordedRun();
    const whole = await collect(readRunEvents(sseResponse(bytes)));
    const converted = new TextEncoder().encode(text(bytes).replace(/\n/g, eol));
    expect(await collect(readRunEvents(chunked(converted, [1])))).toEqual(whole);
    expect(await collect(readRunEvents(chunked(converted, [5, 2])))).toEqual(whole);
  });

  it('ignores comments, a BOM, and frames with another event name', async () => {
    const body =
      '\uFEFF: hello\n\n' +
      'event: ping\ndata: {"not":"ours"}\n\n' +
      'data: {"event_type":"notify_stream_event","type":"notify_stream_event","data":1,"toolName":"t","toolCallId":"c"}\n\n' +
      ': keep-alive\n\n' +
      'data: {"event_type":"run_end","type":"run_end","status":"completed","interruptions":[],"lastAgent":{"name":"A"}}\n\n';
    const events = await collect(readRunEvents(sseResponse(body)));
    expect(events.map((e) => e.event_type)).toEqual(['notify_stream_event', 'run_end']);
  });

  it('makes values JSON cannot carry safe (bigint, cycles)', async () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const odd = streamingTool({
      name: 'odd',
      description: '',
      parameters: z.object({}),
      async *execute() {
        yield notify({ big: 2n ** 70n, cyclic });
        return 'ok';
      },
    });
    const model = new ScriptedModel([[functionCall('odd', {}, { callId: 'o1' })], [assistantMessage('fine')]]);
    const result = await run(new Agent({ name: 'O', model, tools: [odd] }), 'go', { stream: true });
    const decoded = await collect(readRunEvents(toSSEResponse(result)));
    const note = decoded.find((e) => e.event_type === 'notify_stream_event');
    expect(note).toMatchObject({ data: { big: '1180591620717411303424', cyclic: { name: 'loop', self: '[Circular]' } } });
    expect(decoded.at(-1)).toMatchObject({ event_type: 'run_end', finalOutput: 'fine' });
  });

  it('leaves out what `filter` rejects', async () => {
    const result = await run(scenario(), 'go', { stream: true });
    const decoded = await collect(readRunEvents(toSSEResponse(result, { filter: (e) => e.type !== 'raw_model_stream_event' })));
    expect(decoded.some((e) => e.event_type === 'raw_model_stream_event')).toBe(false);
    expect(decoded.some((e) => e.event_type === 'notify_stream_event')).toBe(true);
    expect(decoded.at(-1)?.event_type).toBe('run_end');
  });

  it('sends heartbeat comments while a tool is quiet; the decoder skips them', async () => {
    const slow = streamingTool({
      name: 'slow',
      description: '',
      parameters: z.object({}),
      async *execute() {
        yield notify('before');
        await sleep(150);
        yield notify('after');
        return 'slow done';
      },
    });
    const model = new ScriptedModel([[functionCall('slow', {}, { callId: 's1' })], [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'S', model, tools: [slow] }), 'go', { stream: true });
    const bytes = await bytesOf(toSSE(result, { heartbeatMs: 20 }));
    const raw = text(bytes);
    expect(raw.match(/^: keep-alive$/gm)?.length ?? 0).toBeGreaterThanOrEqual(2);
    const decoded = await collect(readRunEvents(sseResponse(bytes)));
    expect(decoded.filter((e) => e.event_type === 'notify_stream_event').map((e) => (e as { data: unknown }).data)).toEqual(['before', 'after']);
  });

  it('ends with run_end status "interrupted" and the pending approvals when the run pauses', async () => {
    const pay = tool({ name: 'pay', description: '', parameters: z.object({ to: z.string() }), needsApproval: true, execute: () => 'paid' });
    const model = new ScriptedModel([[functionCall('pay', { to: 'bob' }, { callId: 'p1' })]]);
    const result = await run(new Agent({ name: 'Bank', model, tools: [pay] }), 'pay bob', { stream: true });
    const decoded = await collect(readRunEvents(toSSEResponse(result)));
    expect(decoded.at(-1)).toMatchObject({
      event_type: 'run_end',
      status: 'interrupted',
      interruptions: [{ type: 'tool_approval_item', toolName: 'pay', agent: { name: 'Bank' }, rawItem: { callId: 'p1', arguments: '{"to":"bob"}' } }],
    });
    expect(decoded.at(-1)).not.toHaveProperty('finalOutput');
  });
});

describe('a broken or wrong stream is a typed error, never a half-parsed event', () => {
  it('cut in the middle of an event: the events before it, then incomplete_event', async () => {
    const { bytes } = await recordedRun();
    const raw = text(bytes);
    const frames = raw.split('\n\n');
    const cutInside = frames.slice(0, 5).join('\n\n') + '\n\n' + frames[5]!.slice(0, 20);
    for (const sizes of [[1], [4096]]) {
      const { error, got } = await failureOf(readRunEvents(chunked(new TextEncoder().encode(cutInside), sizes)));
      expect(error.reason).toBe('incomplete_event');
      expect(got).toHaveLength(5);
      expect(got).toEqual((await collect(readRunEvents(sseResponse(bytes)))).slice(0, 5));
    }
  });

  it('a complete data line without the blank line that ends the event is still incomplete', async () => {
    const { bytes } = await recordedRun();
    const frames = text(bytes).split('\n\n');
    const { error, got } = await failureOf(readRunEvents(sseResponse(`${frames[0]}\n\n${frames[1]}\n`)));
    expect(error.reason).toBe('incomplete_event');
    expect(got).toHaveLength(1);
  });

  it('cut between events, before run_end: missing_end', async () => {
    const { bytes } = await recordedRun();
    const frames = text(bytes).split('\n\n').filter(Boolean);
    const { error, got } = await failureOf(readRunEvents(sseResponse(frames.slice(0, -1).join('\n\n') + '\n\n')));
    expect(error.reason).toBe('missing_end');
    expect(got).toHaveLength(frames.length - 1);
  });

  it('a body that errors while being read: connection_lost, with the cause', async () => {
    const cause = new Error('socket hang up');
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode('data: {"event_type":"notify_stream_event","type":"notify_stream_event","data":1,"toolName":"t","toolCallId":"c"}\n\ndata: {"ev'));
        } else controller.error(cause);
      },
    });
    const { error, got } = await failureOf(readRunEvents(body));
    expect(error.reason).toBe('connection_lost');
    expect(error.cause).toBe(cause);
    expect(got).toHaveLength(1);
  });

  it.each([
    ['not JSON', 'data: {oops\n\n'],
    ['JSON but not an object', 'data: [1,2]\n\n'],
    ['an object without event_type', 'data: {"type":"x"}\n\n'],
    ['a run_error without error', 'data: {"event_type":"run_error"}\n\n'],
  ])('an event whose data is %s: malformed_event', async (_what, body) => {
    const { error } = await failureOf(readRunEvents(sseResponse(body)));
    expect(error.reason).toBe('malformed_event');
  });

  it('a non-2xx response: http_status; not an event stream: not_event_stream', async () => {
    const failed = await failureOf(readRunEvents(new Response('nope', { status: 503, statusText: 'Service Unavailable' })));
    expect(failed.error.reason).toBe('http_status');
    expect(failed.error.status).toBe(503);
    const json = await failureOf(readRunEvents(new Response('{}', { headers: { 'content-type': 'application/json' } })));
    expect(json.error.reason).toBe('not_event_stream');
    expect(json.error.message).toContain('application/json');
  });

  it('a run that fails on the server: the events so far, then run_failed with the remote error (details opted in)', async () => {
    const model = new ScriptedModel([[functionCall('noisy', {}, { callId: 'n1' })]]);
    const noisy = streamingTool({
      name: 'noisy',
      description: '',
      parameters: z.object({}),
      async *execute() {
        yield notify('ok');
        yield 'not an event' as never;
        return 'never';
      },
    });
    const result = await run(new Agent({ name: 'N', model, tools: [noisy] }), 'go', { stream: true });
    const { error, got } = await failureOf(readRunEvents(toSSEResponse(result, { errorDetails: true })));
    expect(error.reason).toBe('run_failed');
    expect(error.remoteError?.name).toBe('ToolCallError');
    expect(error.remoteError?.message).toContain('Streaming tool "noisy"');
    expect((got as RunEventJSON[]).map((e) => e.event_type)).toContain('notify_stream_event');

    const modelFails = new ScriptedModel([modelError(new Error('upstream 500'))]);
    const failedRun = await run(new Agent({ name: 'M', model: modelFails }), 'go', { stream: true });
    const failure = await failureOf(readRunEvents(toSSEResponse(failedRun, { errorDetails: true })));
    expect(failure.error.reason).toBe('run_failed');
    expect(failure.error.remoteError?.message).toContain('upstream 500');
  });

  it('an aborted signal stops reading (aborted) and cancels the body', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: {"event_type":"notify_stream_event","type":"notify_stream_event","data":1,"toolName":"t","toolCallId":"c"}\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const got: unknown[] = [];
    const error = await (async () => {
      for await (const event of readRunEvents(body, { signal: controller.signal })) {
        got.push(event);
        setTimeout(() => controller.abort(), 5);
      }
    })().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(RunEventStreamError);
    expect((error as RunEventStreamError).reason).toBe('aborted');
    expect(got).toHaveLength(1);
    expect(cancelled).toBe(true);
  });
});

describe('toSSE is a thin, lazy view over the run', () => {
  it('reads an event only when bytes are asked for: a slow reader holds the tool at the run’s buffer', async () => {
    let steps = 0;
    const counter = streamingTool({
      name: 'counter',
      description: '',
      parameters: z.object({}),
      async *execute() {
        for (let i = 1; i <= 100; i++) {
          steps = i;
          yield notify(i);
        }
        return 'counted';
      },
    });
    const model = new ScriptedModel([[functionCall('counter', {}, { callId: 'c1' })], [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'C', model, tools: [counter] }), 'go', { stream: true, streamBufferSize: 4 });
    const reader = toSSE(result, { heartbeatMs: 0 }).getReader();
    let got = '';
    while (!got.includes('notify_stream_event')) got += text((await reader.read()).value!);
    await sleep(100);
    expect(steps).toBeLessThanOrEqual(4 + 3);
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      got += text(next.value);
    }
    expect(steps).toBe(100);
    expect(got).toContain('"event_type":"run_end"');
  });

  it('cancelling the stream (the client went away) cancels the run and the tool in flight', async () => {
    const started = deferred<AbortSignal>();
    const wait = streamingTool({
      name: 'wait',
      description: '',
      parameters: z.object({}),
      async *execute(_input, _ctx, details) {
        started.resolve(details.signal);
        yield notify('waiting');
        await aborted(details.signal);
        return 'never';
      },
    });
    const model = new ScriptedModel([[functionCall('wait', {}, { callId: 'w1' })], [assistantMessage('never')]]);
    const result = await run(new Agent({ name: 'W', model, tools: [wait] }), 'go', { stream: true });
    const reader = toSSE(result).getReader();
    await reader.read();
    const signal = await started.promise;
    await reader.cancel();
    await within(aborted(signal), 1000, 'the tool was not aborted');
    await within(result.completed, 1000, 'the run did not settle');
    expect(result.cancelled).toBe(true);
    expect(model.calls).toHaveLength(1);
  });
});
