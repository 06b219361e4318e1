import type { RunStreamEvent } from '@baton/types';
import { uiChunksOf } from './internal/uiChunks.js';
import { uiMessageStreamResponse } from './internal/sseResponse.js';
import type { AiSdkUiMessageChunk } from './uiMessageChunk.js';

/** What a UI message stream is made from: a streamed run result, its event stream, or any async iterable of run events. */
export type AiSdkUiMessageStreamSource = ReadableStream<RunStreamEvent> | AsyncIterable<RunStreamEvent> | { toStream: () => ReadableStream<RunStreamEvent> };

export type AiSdkUiMessageStreamHeaders = Headers | Record<string, string> | Array<[string, string]>;

export interface AiSdkUiMessageStreamOptions {
  /**
   * What a client that goes away (the stream is cancelled) does to the run: `'cancel'` (the
   * default) cancels it; `'continue'` lets it run to its end (or its next pause) unread, so its
   * result and state are still written (to a session, a store) for the next page load.
   */
  readonly onDisconnect?: 'cancel' | 'continue';
  /**
   * The id of the assistant message the run writes (the `start` chunk's `messageId`). Give the id
   * of the message a resumed run continues (after an approval), so the UI keeps it; by default a new id.
   */
  readonly messageId?: string;
}

export interface AiSdkUiMessageStreamResponseOptions extends AiSdkUiMessageStreamOptions {
  readonly headers?: AiSdkUiMessageStreamHeaders;
  readonly status?: number;
  readonly statusText?: string;
}

/**
 * A run's events as the AI SDK's UI message stream (`UIMessageChunk`s), for a chat route that
 * answers `useChat`. Pull-based: each chunk is read from the run when the consumer asks for it, so
 * a slow client slows the run instead of buffering it; cancelling the stream (a client that went
 * away) cancels the run's event stream, which cancels the run (or, with `onDisconnect: 'continue'`,
 * lets the run finish unread).
 */
export function createAiSdkUiMessageStream(source: AiSdkUiMessageStreamSource, options: AiSdkUiMessageStreamOptions = {}): ReadableStream<AiSdkUiMessageChunk> {
  const iterator = uiChunksOf(eventsOf(source), options.messageId === undefined ? {} : { messageId: options.messageId })[Symbol.asyncIterator]();
  return new ReadableStream<AiSdkUiMessageChunk>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        if (options.onDisconnect === 'continue') {
          // Read the rest, unseen, so the run goes on to its end; its failure has no reader left to tell.
          void (async () => {
            for (let next = await iterator.next(); next.done !== true; next = await iterator.next());
          })().catch(() => undefined);
          return;
        }
        await iterator.return?.(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The UI message stream as a `Response` in the protocol's wire format (server-sent events, one
 * `data: <chunk JSON>` per chunk, then `data: [DONE]`), with the headers `useChat` expects
 * (`content-type: text/event-stream`, `x-vercel-ai-ui-message-stream: v1`, no caching or proxy
 * buffering); `options.headers` are added over them.
 */
export function createAiSdkUiMessageStreamResponse(source: AiSdkUiMessageStreamSource, options: AiSdkUiMessageStreamResponseOptions = {}): Response {
  const { headers, status, statusText, ...streamOptions } = options;
  return uiMessageStreamResponse(createAiSdkUiMessageStream(source, streamOptions), { ...(headers === undefined ? {} : { headers }), ...(status === undefined ? {} : { status }), ...(statusText === undefined ? {} : { statusText }) });
}

function eventsOf(source: AiSdkUiMessageStreamSource): AsyncIterable<RunStreamEvent> {
  if (typeof (source as { toStream?: unknown }).toStream === 'function') return iterate((source as { toStream: () => ReadableStream<RunStreamEvent> }).toStream());
  if (typeof (source as { getReader?: unknown }).getReader === 'function') return iterate(source as ReadableStream<RunStreamEvent>);
  return source as AsyncIterable<RunStreamEvent>;
}

/** A ReadableStream read as an async iterable; stopping early cancels the stream. */
async function* iterate<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  let done = false;
  try {
    while (true) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
