import { safeStringify } from './safeJson.js';

/** Response headers for a `text/event-stream` (no caching, no proxy buffering). */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
});

/**
 * One SSE frame: `id:` and a single `data:` line (JSON text has no raw line breaks), then the
 * blank line that ends the event. No `event:` field, so a browser `EventSource`'s `onmessage`
 * receives every frame (as in the seed's client code); the type is the JSON's `event_type`.
 */
export function encodeFrame(json: unknown, id: number): string {
  return `id: ${id}\ndata: ${safeStringify(json)}\n\n`;
}

/** A comment line: ignored by every SSE client, it keeps idle connections open through proxies. */
export const HEARTBEAT_FRAME = ': keep-alive\n\n';
