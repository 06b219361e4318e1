import type { ServerResponse } from 'node:http';
import type { FakeStreamOptions } from './turns.js';

type Json = Record<string, unknown>;

/** How a streamed answer ended, from the server's side. */
export type StreamEnding = 'completed' | 'cut' | 'ended_early' | 'client_closed';

/**
 * How frames are written: `responses` (an `event:` line and a `sequence_number`), `chat` (bare
 * `data:` lines, then `data: [DONE]`), `anthropic` (an `event:` line named after the event's
 * `type`), `gemini` (bare `data:` lines, no terminator).
 */
export type SseFlavour = 'responses' | 'chat' | 'anthropic' | 'gemini';

/** The not-JSON frame `malformedFrameAt` writes, shaped like the flavour's frames. */
const MALFORMED: Record<SseFlavour, string> = {
  responses: 'data: {"type": "response.output_text.delta", this is not json\n\n',
  chat: 'data: {"type": "response.output_text.delta", this is not json\n\n',
  anthropic: 'event: content_block_delta\ndata: {"type": "content_block_delta", this is not json\n\n',
  gemini: 'data: {"candidates": [ this is not json\n\n',
};

/** Writes events as SSE frames in the flavour's framing, applying the turn's stream options. */
export async function writeSse(
  res: ServerResponse,
  events: Json[],
  options: FakeStreamOptions,
  flavour: SseFlavour,
  headers: Record<string, string>,
  mark: (ending: StreamEnding) => void = () => {},
): Promise<StreamEnding> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
  let sequence = 0;
  let flushed: Promise<void> = Promise.resolve();
  const send = (text: string) => {
    flushed = new Promise((resolve) => res.write(text, () => resolve()));
  };
  const write = (event: Json) => {
    if (flavour === 'responses') {
      const framed = { ...event, sequence_number: sequence++ };
      send(`event: ${String(event.type)}\ndata: ${JSON.stringify(framed)}\n\n`);
    } else if (flavour === 'anthropic') {
      send(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    } else {
      send(`data: ${JSON.stringify(event)}\n\n`);
    }
  };
  for (let i = 0; i <= events.length; i++) {
    if (res.destroyed) return 'client_closed';
    if (options.cutAfterEvents === i) {
      mark('cut');
      await flushed; // what was written reaches the client, then the connection drops
      res.socket?.destroy();
      return 'cut';
    }
    if (options.endAfterEvents === i) {
      mark('ended_early');
      res.end();
      return 'ended_early';
    }
    if (options.hangAfterEvents === i) {
      await closed(res);
      return 'client_closed';
    }
    if (options.malformedFrameAt === i) send(MALFORMED[flavour]);
    for (const extra of options.extraEvents ?? []) if (extra.at === i) write(extra.event);
    const event = events[i];
    if (event === undefined) break;
    write(event);
    if (options.eventDelayMs !== undefined && i < events.length - 1) {
      if (await closedWithin(res, options.eventDelayMs)) return 'client_closed';
    }
  }
  if (flavour === 'chat') res.write('data: [DONE]\n\n');
  res.end();
  return 'completed';
}

/** Resolves when the response's connection closes. */
export function closed(res: ServerResponse): Promise<void> {
  if (res.destroyed || res.closed) return Promise.resolve();
  return new Promise((resolve) => res.once('close', () => resolve()));
}

/** Waits `ms`; resolves `true` early if the client closed the connection meanwhile. */
export function closedWithin(res: ServerResponse, ms: number): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(!res.writableFinished);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    res.once('close', onClose);
  });
}
