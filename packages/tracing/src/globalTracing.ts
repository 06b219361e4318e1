import { getGlobalTraceProvider } from './globalTraceProvider.js';
import type { TracingIdGenerator } from './ids.js';
import type { TracingProcessor } from './processor.js';
import type { Span } from './span.js';
import type { SpanData } from './spanData.js';
import type { Trace } from './trace.js';

/** Adds a processor beside the ones already registered. */
export function addTraceProcessor(processor: TracingProcessor): void {
  getGlobalTraceProvider().registerProcessor(processor);
}

/** Replaces every registered processor (for example the default OpenAI exporter). */
export function setTraceProcessors(processors: TracingProcessor[]): void {
  if (!Array.isArray(processors)) throw new TypeError(`setTraceProcessors expects an array of processors, got ${typeof processors}.`);
  getGlobalTraceProvider().setProcessors(processors);
}

/** Turns tracing off (or on) for every run and span made afterwards. */
export function setTracingDisabled(disabled: boolean): void {
  getGlobalTraceProvider().setDisabled(disabled);
}

/** Replaces how trace and span ids are made (either or both). */
export function setTracingIdGenerator(idGenerator?: Partial<TracingIdGenerator>): void {
  getGlobalTraceProvider().setIdGenerator(idGenerator);
}

export function startTraceExportLoop(): void {
  getGlobalTraceProvider().startExportLoop();
}

export function dispatchTrace(trace: Trace): Promise<void> {
  return getGlobalTraceProvider().dispatchTrace(trace);
}
export function dispatchSpan<TData extends SpanData>(span: Span<TData>): Promise<void> {
  return getGlobalTraceProvider().dispatchSpan(span);
}
export function dispatchSpanStart<TData extends SpanData>(span: Span<TData>): Promise<void> {
  return getGlobalTraceProvider().dispatchSpanStart(span);
}
export function dispatchSpanEnd<TData extends SpanData>(span: Span<TData>): Promise<void> {
  return getGlobalTraceProvider().dispatchSpanEnd(span);
}
