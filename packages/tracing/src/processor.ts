import type { Span } from './span.js';
import type { Trace } from './trace.js';

/**
 * Receives traces and spans as they start and end. Its promises are not awaited by a run: a
 * processor that is slow or fails never holds a run up (failures are logged once per processor).
 */
export interface TracingProcessor {
  start?(): void;
  onTraceStart(trace: Trace): Promise<void>;
  onTraceEnd(trace: Trace): Promise<void>;
  onSpanStart(span: Span<any>): Promise<void>;
  onSpanEnd(span: Span<any>): Promise<void>;
  shutdown(timeout?: number): Promise<void>;
  forceFlush(): Promise<void>;
}

/** Sends finished traces and spans somewhere (`BatchTraceProcessor` calls it in batches). */
export interface TracingExporter {
  export(items: (Trace | Span<any>)[], signal?: AbortSignal): Promise<void>;
}
