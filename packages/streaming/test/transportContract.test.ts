// The transports' promises (README "Transports", "What a browser sees", and the option docs of
// `SSEOptions` / `pipeToNodeResponse`), each stated so that a small bug would fail it:
// - "All views read the run's one event source ... lazily": nothing is read before a client asks.
// - "`filter`: Leave events out of the stream": also events the default policy would send.
// - "`heartbeatMs` ... `0` turns it off", "`drainTimeoutMs` ... `0` turns it off".
// - an option that is not a number >= 0 is refused, naming the option (not read as "off").
// - `StreamedRunLike` and `NodeResponseLike` are the whole contract: an iterator without `return`,
//   a response without `flushHeaders` / `destroy` / `destroyed` are enough.
// - "a client disconnect ... cancels the run", also one that happened before piping started or
//   while a frame waits for `drain` (not only after the drain deadline).
// - after the stream ends nothing of it stays scheduled or listening (a long stream does not pile
//   up `drain` / `close` listeners; a finished response does not keep the process alive 15 s).
// - `run_end` says `completed` or `interrupted`: a run cancelled on the server gets neither.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunStreamEvent } from '@baton/core';
import {
  RunEventStreamError,
  SSEDrainTimeoutError,
  pipeToNodeResponse,
  readRunEvents,
  toSSE,
  toSSEResponse,
  type NodeResponseLike,
  type StreamedRunLike,
} from '../src/index.js';
import { sleep, within } from './helpers.js';

const note = (data: unknown): RunStreamEvent =>
  ({ type: 'notify_stream_event', toolName: 'progress', toolCallId: 'call_1', data }) as unknown as RunStreamEvent;
const agentUpdated = (name: string): RunStreamEvent => ({ type: 'agent_updated_stream_event', agent: { name } }) as unknown as RunStreamEvent;

/**
 * A run whose events are `events`, then done. Its iterator has `next` only (the interface does not
 * promise `return`), and it counts how often it was read.
 */
function scriptedRun(events: RunStreamEvent[], options: { cancelledAtEnd?: boolean } = {}) {
  let index = 0;
  let cancelled = false;
  const state = { reads: 0 };
  const runLike: StreamedRunLike = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        state.reads++;
        if (cancelled || index >= events.length) {
          if (options.cancelledAtEnd) cancelled = true;
          return { done: true as const, value: undefined };
        }
        return { done: false as const, value: events[index++]! };
      },
    }),
    completed: Promise.resolve(),
    get cancelled() {
      return cancelled;
    },
    finalOutput: 'the end',
    interruptions: [],
    lastAgent: { name: 'Scripted' },
    cancel: () => {
      cancelled = true;
    },
  };
  return { runLike, state };
}

/** A run that stays quiet (a long tool call) until cancelled; its iterator has no `return` either. */
function quietRun() {
  let cancelled = false;
  let wake!: () => void;
  const woken = new Promise<void>((resolve) => (wake = resolve));
  let first = true;
  const runLike: StreamedRunLike = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        if (first) {
          first = false;
          return { done: false as const, value: note('started') };
        }
        await woken;
        return { done: true as const, value: undefined };
      },
    }),
    completed: woken,
    get cancelled() {
      return cancelled;
    },
    finalOutput: undefined,
    interruptions: [],
    lastAgent: { name: 'Quiet' },
    cancel: () => {
      cancelled = true;
      wake();
    },
  };
  return { runLike };
}

const decode = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);

async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

/** A `NodeResponseLike` with only the required members, recording what was done to it. */
function minimalResponse(write: (chunk: string) => boolean = () => true) {
  const listeners = new Map<string, Set<() => void>>();
  const log: string[] = [];
  const res: NodeResponseLike = {
    headersSent: false,
    writableFinished: false,
    writeHead: (status) => void log.push(`head ${status}`),
    write: (chunk) => {
      const text = decode(chunk);
      log.push(`write ${text.includes('run_end') ? 'run_end' : 'frame'}`);
      return write(text);
    },
    end: () => void log.push('end'),
    on: (event, listener) => void (listeners.get(event) ?? listeners.set(event, new Set()).get(event)!).add(listener),
    off: (event, listener) => void listeners.get(event)?.delete(listener),
  };
  const emit = (event: 'close' | 'drain') => [...(listeners.get(event) ?? [])].forEach((listener) => listener());
  const listening = () => [...listeners.values()].reduce((n, set) => n + set.size, 0);
  return { res, log, emit, listening };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('toSSE options', () => {
  it.each([
    ['heartbeatMs', -1],
    ['heartbeatMs', Number.NaN],
    ['heartbeatMs', Number.POSITIVE_INFINITY],
    ['heartbeatMs', '1000'],
    ['drainTimeoutMs', -1],
    ['drainTimeoutMs', Number.NaN],
    ['drainTimeoutMs', Number.POSITIVE_INFINITY],
    ['drainTimeoutMs', '1000'],
  ])('%s: %s is refused with a TypeError naming the option', (name, value) => {
    const { runLike } = scriptedRun([]);
    const attempt = () => toSSE(runLike, { [name]: value });
    expect(attempt).toThrow(TypeError);
    expect(attempt).toThrow(new RegExp(`^toSSE\\(\\): ${name} must be a number >= 0, got ${String(value)}`));
  });

  it('an unknown rawModelEvents policy is refused, naming the function', () => {
    const { runLike } = scriptedRun([]);
    expect(() => toSSE(runLike, { rawModelEvents: 'some' as never })).toThrow(/^toSSE\(\): rawModelEvents/);
  });

  it('heartbeatMs: 0 turns the keep-alive off: a minute of silence sends nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { runLike } = quietRun();
    const reader = toSSE(runLike, { heartbeatMs: 0, drainTimeoutMs: 0 }).getReader();
    expect(decode((await reader.read()).value)).toContain('"started"');
    const chunks: string[] = [];
    const next = reader.read().then((r) => (r.value ? chunks.push(decode(r.value)) : undefined));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(chunks).toEqual([]);
    expect(runLike.cancelled).toBe(false);
    await reader.cancel();
    await next;
  });

  it('filter leaves out events the default policy would send', async () => {
    const { runLike } = scriptedRun([agentUpdated('First'), note(1), agentUpdated('Second'), note(2)]);
    const text = await textOf(toSSE(runLike, { heartbeatMs: 0, filter: (event) => event.type !== 'notify_stream_event' }));
    expect(text).not.toContain('notify_stream_event');
    expect(text.match(/agent_updated_stream_event/g)?.length).toBe(2 * 2); // event_type and type of two frames
    expect(text).toContain('"event_type":"run_end"');
  });

  it('a filter that throws fails the stream with its error and cancels the run', async () => {
    const { runLike } = scriptedRun([note(1), note(2)]);
    const broken = new Error('filter bug');
    const reader = toSSE(runLike, {
      heartbeatMs: 0,
      filter: () => {
        throw broken;
      },
    }).getReader();
    await expect(reader.read()).rejects.toBe(broken);
    expect(runLike.cancelled).toBe(true);
  });
});

describe('toSSE reads lazily', () => {
  it('reads no event before the client asks, and one per frame asked for', async () => {
    const { runLike, state } = scriptedRun([note(1), note(2), note(3)]);
    const reader = toSSE(runLike, { heartbeatMs: 0 }).getReader();
    await sleep(20);
    expect(state.reads).toBe(0);
    await reader.read();
    await sleep(20);
    expect(state.reads).toBe(1);
    await reader.read();
    await sleep(20);
    expect(state.reads).toBe(2);
    await reader.cancel();
  });

  it('leaves no timer behind once the stream has ended (a finished response does not keep the process alive)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { runLike } = scriptedRun([note(1), note(2), note(3)]);
    const reader = toSSE(runLike, { drainTimeoutMs: 0 }).getReader(); // the keep-alive at its default (15 s)
    for (let next = await reader.read(); !next.done; next = await reader.read());
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('toSSE with a StreamedRunLike whose iterator has no return()', () => {
  it('the drain deadline cancels the run and fails the stream with SSEDrainTimeoutError', async () => {
    const { runLike } = quietRun();
    const reader = toSSE(runLike, { heartbeatMs: 0, drainTimeoutMs: 50 }).getReader();
    await reader.read(); // then the client reads no more
    await within(runLike.completed, 2_000, 'the run was not cancelled');
    expect(runLike.cancelled).toBe(true);
    const error = await reader.read().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(SSEDrainTimeoutError);
    expect((error as Error).name).toBe('SSEDrainTimeoutError');
  });

  it('cancelling the stream cancels the run', async () => {
    const { runLike } = quietRun();
    const reader = toSSE(runLike, { heartbeatMs: 0 }).getReader();
    await reader.read();
    await reader.cancel();
    expect(runLike.cancelled).toBe(true);
  });
});

describe('toSSE at the end of a run', () => {
  it('a run cancelled on the server gets no run_end (neither completed nor interrupted): the client sees missing_end', async () => {
    const { runLike } = scriptedRun([note(1)], { cancelledAtEnd: true });
    const response = toSSEResponse(runLike, { heartbeatMs: 0 });
    const got: unknown[] = [];
    const error = await (async () => {
      for await (const event of readRunEvents(response)) got.push(event);
    })().then(() => undefined, (e: unknown) => e);
    expect(got).toHaveLength(1);
    expect(error).toBeInstanceOf(RunEventStreamError);
    expect((error as RunEventStreamError).reason).toBe('missing_end');
  });
});

describe('toSSEResponse', () => {
  it('uses the status given, 200 without one, and the text/event-stream headers with the caller’s on top', () => {
    const { runLike } = scriptedRun([]);
    const created = toSSEResponse(runLike, { status: 201, headers: { 'x-run': 'r1', 'cache-control': 'no-store' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(created.headers.get('x-run')).toBe('r1');
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(toSSEResponse(scriptedRun([]).runLike).status).toBe(200);
  });
});

describe('pipeToNodeResponse options', () => {
  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, '1000'])('drainTimeoutMs: %s is refused with a TypeError naming the option, and the run is let go', async (value) => {
    const { runLike } = scriptedRun([note(1)]);
    const { res, log } = minimalResponse();
    const error = await pipeToNodeResponse(runLike, res, { drainTimeoutMs: value as number }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(new RegExp(`^pipeToNodeResponse\\(\\): drainTimeoutMs must be a number >= 0, got ${String(value)}`));
    expect(log).toEqual([]);
  });

  it('drainTimeoutMs: 0 turns the deadline off: a socket that drains late still gets the whole run', async () => {
    const { runLike } = scriptedRun([note(1), note(2)]);
    let emitDrain!: () => void;
    const { res, log, emit } = minimalResponse(() => {
      setTimeout(() => emitDrain(), 30);
      return false; // every write fills the socket; it drains 30 ms later
    });
    emitDrain = () => emit('drain');
    await within(pipeToNodeResponse(runLike, res, { heartbeatMs: 0, drainTimeoutMs: 0 }), 2_000, 'the pipe did not finish');
    expect(log).toEqual(['head 200', 'write frame', 'write frame', 'write run_end', 'end']);
    expect(runLike.cancelled).toBe(false);
  });
});

describe('pipeToNodeResponse with a NodeResponseLike of the required members only', () => {
  it('streams the whole run (no flushHeaders needed) and leaves no listener behind', async () => {
    const { runLike } = scriptedRun([note(1), note(2), note(3)]);
    const { res, log, listening } = minimalResponse();
    await pipeToNodeResponse(runLike, res, { heartbeatMs: 0 });
    expect(log).toEqual(['head 200', 'write frame', 'write frame', 'write frame', 'write run_end', 'end']);
    expect(listening()).toBe(0);
  });

  it('a socket that waits for drain many times does not pile up listeners', async () => {
    const events = Array.from({ length: 30 }, (_, i) => note(i));
    const { runLike } = scriptedRun(events);
    let most = 0;
    const { res, emit, listening } = minimalResponse(() => {
      queueMicrotask(() => {
        most = Math.max(most, listening());
        emit('drain');
      });
      return false;
    });
    await within(pipeToNodeResponse(runLike, res, { heartbeatMs: 0 }), 2_000, 'the pipe did not finish');
    expect(most).toBeLessThanOrEqual(3); // the pipe's own close listener, and one drain wait's drain and close
    expect(listening()).toBe(0);
  });

  it('a socket that does not drain within drainTimeoutMs (no destroy method) cancels the run and resolves', async () => {
    const { runLike } = quietRun();
    const { res } = minimalResponse(() => false);
    await within(pipeToNodeResponse(runLike, res, { heartbeatMs: 0, drainTimeoutMs: 50 }), 2_000, 'the pipe did not give up');
    expect(runLike.cancelled).toBe(true);
  });

  it('a client that closes while a frame waits for drain cancels the run at once, not at the drain deadline', async () => {
    const { runLike } = quietRun();
    const { res, emit } = minimalResponse(() => {
      setTimeout(() => emit('close'), 10);
      return false;
    });
    await within(pipeToNodeResponse(runLike, res, { heartbeatMs: 0 }), 1_000, 'the pipe waited for the drain deadline (30 s)');
    expect(runLike.cancelled).toBe(true);
  });

  it('a response already closed before piping: nothing is written and the run is cancelled', async () => {
    const { runLike } = quietRun();
    const { res, log } = minimalResponse(() => false);
    const closed: NodeResponseLike = Object.assign(Object.create(res) as NodeResponseLike, { destroyed: true });
    await within(pipeToNodeResponse(runLike, closed, { heartbeatMs: 0, drainTimeoutMs: 0 }), 1_000, 'the pipe wrote to a closed response');
    expect(log).toEqual([]);
    expect(runLike.cancelled).toBe(true);
  });

  it('a write that throws rejects with that error, cancels the run and ends the response', async () => {
    const { runLike } = quietRun();
    const broken = new Error('write after end');
    const { res, log } = minimalResponse(() => {
      throw broken;
    });
    const error = await pipeToNodeResponse(runLike, res, { heartbeatMs: 0 }).then(() => undefined, (e: unknown) => e);
    expect(error).toBe(broken);
    expect(runLike.cancelled).toBe(true);
    expect(log.at(-1)).toBe('end');
  });
});

describe('pipeToNodeResponse on a response whose headers were already sent', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => (server.closeAllConnections(), new Promise((resolve) => server.close(resolve)))));
  });

  it('keeps the caller’s status and headers and streams the run', async () => {
    const { runLike } = scriptedRun([note(1)]);
    const failures: unknown[] = [];
    const server = createServer((_req, res) => {
      res.writeHead(202, { 'content-type': 'text/event-stream', 'x-own': 'yes' });
      pipeToNodeResponse(runLike, res, { heartbeatMs: 0 }).catch((error: unknown) => failures.push(error));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(response.status).toBe(202);
    expect(response.headers.get('x-own')).toBe('yes');
    const events: { event_type: string }[] = [];
    for await (const event of readRunEvents(response)) events.push(event);
    expect(events.map((e) => e.event_type)).toEqual(['notify_stream_event', 'run_end']);
    expect(failures).toEqual([]);
  });
});
