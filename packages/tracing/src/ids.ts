const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let offset = 0;

/**
 * Random hex from the platform's cryptographic generator (Node 20+, browsers, workers), drawn
 * from a pooled buffer: one `getRandomValues` call per few hundred ids, not one per id.
 */
function randomHex(length: number): string {
  const bytes = length / 2;
  if (offset + bytes > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    offset = 0;
  }
  let hex = '';
  for (let i = 0; i < bytes; i++) hex += HEX[pool[offset + i]!];
  offset += bytes;
  return hex;
}

/** A trace id in the format OpenAI's traces ingest expects: `trace_` and 32 hex digits. */
export function generateTraceId(): string {
  return `trace_${randomHex(32)}`;
}

/** A span id: `span_` and 24 hex digits. */
export function generateSpanId(): string {
  return `span_${randomHex(24)}`;
}

/** A group id (for linking the traces of one conversation): `group_` and 24 hex digits. */
export function generateGroupId(): string {
  return `group_${randomHex(24)}`;
}

/** Makes the ids of new traces and spans (`setTracingIdGenerator` replaces either). */
export interface TracingIdGenerator {
  readonly generateTraceId: () => string;
  readonly generateSpanId: () => string;
}

export const defaultTracingIdGenerator: TracingIdGenerator = Object.freeze({ generateTraceId, generateSpanId });

/** The id of a trace or span that records nothing. */
export const NOOP_TRACE_OR_SPAN_ID = 'no-op';
