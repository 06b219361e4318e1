// Two defaults the README states, pinned without passing the option: "a bounded buffer
// (`streamBufferSize`, default 256)" and "While nothing happens (a long tool call) a
// `: keep-alive` comment goes out every 15 s". The keep-alive is checked with fake timers, to the
// millisecond on both sides of 15 s. And the README's options table: "`drainTimeoutMs` | `30000`",
// for `toSSE` and for `pipeToNodeResponse` alike, pinned the same way.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, run, type RunStreamEvent } from '@baton/core';
import { SSEDrainTimeoutError, notify, pipeToNodeResponse, streamingTool, toSSE, type NodeResponseLike, type StreamedRunLike } from '../src/index.js';
import { sleep } from './helpers.js';

const BUFFER_DEFAULT = 256; // the README's default
const KEEP_ALIVE_MS = 15_000; // the README's "every 15 s"
const DRAIN_DEFAULT_MS = 30_000; // the README's drainTimeoutMs default

describe('streamBufferSize without the option', () => {
  it('a consumer that stops reading holds a streaming tool at 256 buffered events', async () => {
    const TOTAL = 1_000;
    const state = { steps: 0, finished: false };
    const count = streamingTool({
      name: 'count',
      description: '',
      parameters: z.object({}),
      async *execute() {
        for (let i = 1; i <= TOTAL; i++) {
          state.steps = i;
          yield notify(i);
        }
        state.finished = true;
        return 'counted';
      },
    });
    const model = new ScriptedModel([[functionCall('count', {}, { callId: 'k1' })], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'K', model, tools: [count] }), 'go', { stream: true });
    const iterator = result[Symbol.asyncIterator]();
    for (;;) {
      const next = await iterator.next();
      if (next.done || next.value.type === 'notify_stream_event') break;
    }

    // Wait until the producer stops moving: it is blocked on the full buffer.
    let last = -1;
    for (let stable = 0; stable < 3; ) {
      await sleep(20);
      stable = state.steps === last ? stable + 1 : 0;
      last = state.steps;
    }
    // The same slack as the explicit-size tests (one event read, one in hand): 256 to 258, not 255, not 512.
    expect(state.steps).toBeGreaterThanOrEqual(BUFFER_DEFAULT);
    expect(state.steps).toBeLessThanOrEqual(BUFFER_DEFAULT + 2);
    expect(state.finished).toBe(false);

    for (let next = await iterator.next(); !next.done; next = await iterator.next());
    await result.completed;
    expect(state.steps).toBe(TOTAL);
    expect(result.finalOutput).toBe('done');
  });
});

/** A run that stays quiet (a long tool call) until `end()`. */
function quietRun() {
  let finish!: () => void;
  const ended = new Promise<IteratorResult<RunStreamEvent>>((resolve) => (finish = () => resolve({ done: true, value: undefined })));
  let cancelled = false;
  const runLike: StreamedRunLike = {
    [Symbol.asyncIterator]: () => ({ next: () => ended, return: async () => ({ done: true, value: undefined }) }),
    completed: ended.then(() => undefined),
    get cancelled() {
      return cancelled;
    },
    finalOutput: 'late',
    interruptions: [],
    lastAgent: { name: 'Slow' },
    cancel: () => {
      cancelled = true;
    },
  };
  return { runLike, end: () => finish() };
}

describe('toSSE keep-alive without the option', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends ": keep-alive" after exactly 15 s of silence, and again 15 s later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { runLike, end } = quietRun();
    const reader = toSSE(runLike).getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    const readOne = () => reader.read().then((r) => (r.value ? chunks.push(decoder.decode(r.value)) : undefined, r));

    let read = readOne();
    await vi.advanceTimersByTimeAsync(KEEP_ALIVE_MS - 1);
    expect(chunks).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(chunks).toEqual([': keep-alive\n\n']);
    await read;

    read = readOne();
    await vi.advanceTimersByTimeAsync(KEEP_ALIVE_MS - 1);
    expect(chunks).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(chunks).toEqual([': keep-alive\n\n', ': keep-alive\n\n']);
    await read;

    end();
    for (let next = await readOne(); !next.done; next = await readOne());
    expect(chunks.at(-1)).toContain('"event_type":"run_end"');
    expect(runLike.cancelled).toBe(false);
  });
});

/** A run with one event ready and then quiet until `end()`: a frame waits for a client that reads no more. */
function oneEventRun() {
  const quiet = quietRun();
  let first = true;
  const iterator = quiet.runLike[Symbol.asyncIterator]();
  const runLike: StreamedRunLike = Object.assign(Object.create(quiet.runLike) as StreamedRunLike, {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        if (!first) return iterator.next();
        first = false;
        return Promise.resolve({ done: false, value: { type: 'agent_updated_stream_event', agent: { name: 'Slow' } } as unknown as RunStreamEvent });
      },
      return: async () => ({ done: true as const, value: undefined }),
    }),
  });
  return { runLike, end: quiet.end };
}

describe('drainTimeoutMs without the option', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('toSSE: a client that reads nothing more for exactly 30 s has its run cancelled and its stream failed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { runLike } = oneEventRun();
    const reader = toSSE(runLike, { heartbeatMs: 0 }).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('agent_updated_stream_event');
    // The client now waits without asking for the next frame... (no read() pending)
    await vi.advanceTimersByTimeAsync(DRAIN_DEFAULT_MS - 1);
    expect(runLike.cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(runLike.cancelled).toBe(true);
    const error = await reader.read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SSEDrainTimeoutError);
    expect((error as SSEDrainTimeoutError).drainTimeoutMs).toBe(DRAIN_DEFAULT_MS);
  });

  it('pipeToNodeResponse: a socket that does not drain for exactly 30 s is destroyed and the run cancelled', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { runLike } = oneEventRun();
    const listeners = new Map<string, Set<() => void>>();
    let destroyed = false;
    const writes: string[] = [];
    const res: NodeResponseLike = {
      headersSent: false,
      writableFinished: false,
      get destroyed() {
        return destroyed;
      },
      writeHead: () => undefined,
      write: (chunk) => (writes.push(new TextDecoder().decode(chunk)), false), // the socket is full at once
      end: () => undefined,
      destroy: () => {
        destroyed = true;
      },
      on: (event, listener) => void (listeners.get(event) ?? listeners.set(event, new Set()).get(event)!).add(listener),
      off: (event, listener) => void listeners.get(event)?.delete(listener),
    };
    const piped = pipeToNodeResponse(runLike, res, { heartbeatMs: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(writes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(DRAIN_DEFAULT_MS - 1);
    expect(destroyed).toBe(false);
    expect(runLike.cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await piped;
    expect(destroyed).toBe(true);
    expect(runLike.cancelled).toBe(true);
  });
});
