/**
 * The browser- and Node-safe side of @baton/streaming: read a run's `text/event-stream` back as
 * typed events. No runtime imports, so it bundles to one small ES module
 * (`@baton/streaming/browser`) a page can load directly.
 */
import { SSEParser, type SSEMessage, type SSEParserLimits } from './internal/sseParser.js';
import type { RunEventJSON, RunFrameJSON } from './eventJson.js';
import { RunEventStreamError } from './runEventStreamError.js';

export { RunEventStreamError, type RunEventStreamErrorReason } from './runEventStreamError.js';
export { SSEParser, type SSEMessage, type SSEParserLimits } from './internal/sseParser.js';
export type * from './eventJson.js';

export interface ReadRunEventsOptions extends SSEParserLimits {
  /**
   * Stop reading when this fires (the body is cancelled, so the server's run is cancelled). With
   * `fetch`, passing the same signal to `fetch` does the same.
   */
  signal?: AbortSignal;
}

/**
 * The server-sent events of a byte stream, parsed incrementally. Throws `RunEventStreamError`
 * (`incomplete_event`) when the stream ends in the middle of an event, and (`connection_lost`)
 * when reading fails. Leaving the loop early cancels the stream.
 */
export async function* decodeSSE(body: ReadableStream<Uint8Array>, options: ReadRunEventsOptions = {}): AsyncGenerator<SSEMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const parser = new SSEParser(options);
  const { signal } = options;
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  let finished = false;
  try {
    if (signal?.aborted) throw abortedError(signal.reason);
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        finished = true;
        if (signal?.aborted || (error as { name?: unknown } | null)?.name === 'AbortError') throw abortedError(error);
        throw new RunEventStreamError('connection_lost', `The run’s event stream broke: ${messageOf(error)}`, { cause: error });
      }
      if (signal?.aborted) throw abortedError(signal.reason);
      if (chunk.done) {
        finished = true;
        const rest = decoder.decode();
        const messages = rest === '' ? [] : parser.feed(rest);
        for (const message of messages) yield message;
        if (parser.pending) {
          throw new RunEventStreamError('incomplete_event', 'The run’s event stream ended in the middle of an event; the partial event was dropped.');
        }
        return;
      }
      for (const message of parser.feed(decoder.decode(chunk.value, { stream: true }))) yield message;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * A run's events from a `toSSE` / `toSSEResponse` / `pipeToNodeResponse` stream, as typed JSON
 * events (`RunEventJSON`): the run's events, then `run_end` (final output, pending approvals).
 * Every failure is a `RunEventStreamError` with a `reason`: a non-2xx or non-SSE response, a
 * stream that breaks (mid-event, or before `run_end`), a malformed event, or the run's own
 * failure on the server (`run_failed`). Leaving the loop early cancels the request, which cancels
 * the run on the server.
 */
export async function* readRunEvents(
  source: Response | ReadableStream<Uint8Array>,
  options: ReadRunEventsOptions = {},
): AsyncGenerator<RunEventJSON, void, undefined> {
  const body = bodyOf(source);
  for await (const message of decodeSSE(body, options)) {
    if (message.event !== undefined && message.event !== 'message') continue; // not one of ours
    const frame = parseFrame(message.data);
    if (frame.event_type === 'run_error') {
      throw new RunEventStreamError('run_failed', `The run failed on the server: ${frame.error.name}: ${frame.error.message}`, {
        remoteError: frame.error,
      });
    }
    yield frame;
    if (frame.event_type === 'run_end') return;
  }
  throw new RunEventStreamError('missing_end', 'The run’s event stream ended before the run did (no run_end event).');
}

/** Parses one frame's data; throws `RunEventStreamError` (`malformed_event`) when it is not a run event. */
export function parseRunEvent(data: string): RunEventJSON {
  const frame = parseFrame(data);
  if (frame.event_type === 'run_error') {
    throw new RunEventStreamError('run_failed', `The run failed on the server: ${frame.error.name}: ${frame.error.message}`, { remoteError: frame.error });
  }
  return frame;
}

/** One level of `streaming_tool_context_event` wrapping: which tool call an inner event came from. */
export interface StreamingToolFrame {
  toolName: string;
  toolCallId: string;
}

interface WrappedLike {
  type: string;
  toolName?: unknown;
  toolCallId?: unknown;
  internalEvent?: unknown;
}

/**
 * Unwraps nested `streaming_tool_context_event`s (one per level of streaming tool): the innermost
 * event and the path of tool calls it came through, outermost first. An event that is not wrapped
 * comes back with an empty path. Works on server events and on their JSON alike.
 */
export function unwrapStreamingToolContext<E extends { type: string }>(event: E): { path: StreamingToolFrame[]; event: E } {
  const path: StreamingToolFrame[] = [];
  let current: WrappedLike = event;
  while (current.type === 'streaming_tool_context_event' && typeof current.internalEvent === 'object' && current.internalEvent !== null) {
    path.push({ toolName: String(current.toolName), toolCallId: String(current.toolCallId) });
    current = current.internalEvent as WrappedLike;
  }
  return { path, event: current as E };
}

function bodyOf(source: Response | ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  if (isReadableStream(source)) return source;
  if (!source.ok) {
    void source.body?.cancel().catch(() => undefined);
    throw new RunEventStreamError('http_status', `The server answered ${source.status}${source.statusText ? ` ${source.statusText}` : ''} instead of a run’s events.`, {
      status: source.status,
    });
  }
  const type = source.headers.get('content-type') ?? '';
  if (!/^text\/event-stream\b/i.test(type.trim())) {
    void source.body?.cancel().catch(() => undefined);
    throw new RunEventStreamError('not_event_stream', `Expected a text/event-stream response, got ${type === '' ? 'no content type' : JSON.stringify(type)}.`);
  }
  if (!source.body) throw new RunEventStreamError('not_event_stream', 'The response has no body.');
  return source.body;
}

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof value === 'object' && value !== null && typeof (value as ReadableStream).getReader === 'function' && !('headers' in value);
}

function parseFrame(data: string): RunFrameJSON {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    throw new RunEventStreamError('malformed_event', `An event's data is not JSON (${messageOf(error)}): ${preview(data)}`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof (value as { event_type?: unknown }).event_type !== 'string') {
    throw new RunEventStreamError('malformed_event', `An event's data is not a run event (no string event_type): ${preview(data)}`);
  }
  const frame = value as RunFrameJSON;
  if (frame.event_type === 'run_error' && (typeof frame.error !== 'object' || frame.error === null)) {
    throw new RunEventStreamError('malformed_event', `A run_error event has no error: ${preview(data)}`);
  }
  return frame;
}

function abortedError(cause: unknown): RunEventStreamError {
  return new RunEventStreamError('aborted', 'Reading the run’s events was aborted.', { cause });
}

function preview(data: string): string {
  return JSON.stringify(data.length > 80 ? `${data.slice(0, 80)}…` : data);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
