/** Random hex from the platform's UUID generator (Node 20+, browsers, workers). */
function randomHex(length: number): string {
  return crypto.randomUUID().replace(/-/g, '').slice(0, length);
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
