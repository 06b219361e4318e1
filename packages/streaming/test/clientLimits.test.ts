import { describe, expect, it } from 'vitest';
import { RunEventStreamError, SSEParser, readRunEvents } from '../src/client.js';

/**
 * The attack: a hostile (or broken) server or proxy sends a line that never ends, or an event that
 * never ends. Without caps the browser's parser buffers it all, until the tab runs out of memory.
 * With them, reading stops with a typed error and the request is cancelled.
 */

/** An endless body: `head` once, then `chunk` again and again; says whether it was cancelled. */
function endless(head: string, chunk: string) {
  const state = { cancelled: false, sent: 0 };
  const encoder = new TextEncoder();
  const bytes = encoder.encode(chunk);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head));
    },
    pull(controller) {
      state.sent += bytes.length;
      if (state.sent > 256 * 1024 * 1024) return controller.error(new Error('the reader never gave up'));
      controller.enqueue(bytes);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { state, response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }) };
}

async function failure(events: AsyncIterable<unknown>): Promise<RunEventStreamError> {
  try {
    for await (const _event of events) {
      // keep reading
    }
  } catch (error) {
    expect(error).toBeInstanceOf(RunEventStreamError);
    return error as RunEventStreamError;
  }
  throw new Error('expected the stream to fail');
}

const MiB = 1024 * 1024;

describe('the client parser has size caps', () => {
  it('a line that never ends: event_too_large at maxLineLength (default 16 MiB), and the request is cancelled', async () => {
    const { state, response } = endless('data: ', 'x'.repeat(MiB));
    const error = await failure(readRunEvents(response));
    expect(error.reason).toBe('event_too_large');
    expect(error.message).toMatch(/longer than 16777216 characters \(maxLineLength\); reading stopped/);
    expect(state.cancelled).toBe(true);
    expect(state.sent).toBeLessThanOrEqual(17 * MiB);
  });

  it('an event that never ends (data line after data line): maxEventSize', async () => {
    const { state, response } = endless('', `data: ${'y'.repeat(1000)}\n`);
    const error = await failure(readRunEvents(response, { maxEventSize: 100_000 }));
    expect(error.reason).toBe('event_too_large');
    expect(error.message).toContain('more than 100000 characters of data (maxEventSize)');
    expect(state.cancelled).toBe(true);
  });

  it('the event so far and the line being read together: maxBufferSize', () => {
    const parser = new SSEParser({ maxLineLength: 1000, maxEventSize: 1000, maxBufferSize: 1500 });
    parser.feed(`data: ${'a'.repeat(900)}\n`);
    expect(() => parser.feed(`data: ${'b'.repeat(700)}`)).toThrow(/more than 1500 characters of one event are held at once \(maxBufferSize\)/i);
  });

  it('events within the limits still parse, and limits are checked when given', () => {
    const parser = new SSEParser({ maxLineLength: 20, maxEventSize: 30 });
    expect(parser.feed('data: 0123456789\ndata: 0123456789\n\n')).toEqual([{ data: '0123456789\n0123456789', lastEventId: '' }]);
    expect(() => new SSEParser({ maxEventSize: 0 })).toThrow(/maxEventSize must be a number >= 1, got 0/);
  });
});
