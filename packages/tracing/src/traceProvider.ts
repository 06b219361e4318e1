import { MultiTracingProcessor } from './multiTracingProcessor.js';
import type { TracingProcessor } from './processor.js';
import { NoopSpan, Span, type SpanOptions } from './span.js';
import type { SpanData } from './spanData.js';
import { NoopTrace, Trace, type TraceOptions } from './trace.js';
import { defaultTracingIdGenerator, type TracingIdGenerator } from './ids.js';
import { getCurrentSpan, getCurrentTrace } from './context.js';
import { logger } from './internal/log.js';

export type CreateSpanOptions<TData extends SpanData> = Omit<SpanOptions<TData>, 'traceId'> & { traceId?: string; disabled?: boolean };

export interface TraceProviderOptions {
  idGenerator?: Partial<TracingIdGenerator>;
}

/**
 * Makes traces and spans and sends them to its processors. One global instance
 * (`getGlobalTraceProvider()`) serves the module-level API and every run.
 */
export class TraceProvider {
  readonly #processor: MultiTracingProcessor;
  #disabled: boolean;
  #idGenerator: TracingIdGenerator = defaultTracingIdGenerator;
  #flushOnExit = false;

  constructor(options: TraceProviderOptions = {}, processor: MultiTracingProcessor = new MultiTracingProcessor()) {
    this.#processor = processor;
    this.#disabled = disabledByEnvironment();
    this.setIdGenerator(options.idGenerator);
  }

  /** Every call reaches each registered processor. */
  get processor(): MultiTracingProcessor {
    return this.#processor;
  }

  get disabled(): boolean {
    return this.#disabled;
  }

  registerProcessor(processor: TracingProcessor): void {
    this.#processor.addTraceProcessor(processor);
    this.#startExportOnExit();
  }

  setProcessors(processors: TracingProcessor[]): void {
    this.#processor.setProcessors(processors);
    this.#startExportOnExit();
  }

  getCurrentTrace(): Trace | null {
    return getCurrentTrace();
  }

  getCurrentSpan(): Span<any> | null {
    return getCurrentSpan();
  }

  setDisabled(disabled: boolean): void {
    this.#disabled = disabled;
  }

  setIdGenerator(idGenerator?: Partial<TracingIdGenerator>): void {
    this.#idGenerator = { ...defaultTracingIdGenerator, ...idGenerator };
  }

  generateTraceId(): string {
    return this.#idGenerator.generateTraceId();
  }

  generateSpanId(): string {
    return this.#idGenerator.generateSpanId();
  }

  startExportLoop(): void {
    this.#processor.start();
  }

  createTrace(options: TraceOptions): Trace {
    if (this.#disabled) return new NoopTrace();
    return new Trace({ ...options, traceId: options.traceId ?? this.generateTraceId() }, this.#processor);
  }

  /**
   * A span under `parent`, else under the current span or trace. Outside any trace, or while
   * tracing is disabled, the span records nothing.
   */
  createSpan<TData extends SpanData>(options: CreateSpanOptions<TData>, parent?: Span<any> | Trace): Span<TData> {
    if (this.#disabled || options.disabled) return new NoopSpan(options.data, this.#processor);
    const under = parent ?? getCurrentSpan() ?? getCurrentTrace() ?? undefined;
    if (!under) {
      logger.warn('No active trace: the span is not recorded. Make spans inside withTrace() or a run.');
      return new NoopSpan(options.data, this.#processor);
    }
    if (under instanceof NoopSpan || under instanceof NoopTrace) return new NoopSpan(options.data, this.#processor);
    // One options object, no spreads: this runs for every span of every run.
    const parentSpan = under instanceof Trace ? undefined : under;
    return new Span<TData>(
      {
        traceId: under.traceId,
        spanId: options.spanId ?? this.generateSpanId(),
        parentId: options.parentId ?? parentSpan?.spanId,
        data: options.data,
        traceMetadata: options.traceMetadata ?? (parentSpan ? parentSpan.traceMetadata : (under as Trace).metadata),
        startedAt: options.startedAt,
        endedAt: options.endedAt,
        error: options.error,
        tracingApiKey: options.tracingApiKey ?? under.tracingApiKey,
      },
      this.#processor,
    );
  }

  async shutdown(timeout?: number): Promise<void> {
    await this.#processor.shutdown(timeout);
  }

  async forceFlush(): Promise<void> {
    await this.#processor.forceFlush();
  }

  // The reference's names for sending to the processors directly.
  dispatchTrace(trace: Trace): Promise<void> {
    return this.#processor.onTraceStart(trace);
  }
  dispatchSpan<TData extends SpanData>(span: Span<TData>): Promise<void> {
    return this.#processor.onSpanEnd(span);
  }
  dispatchSpanStart<TData extends SpanData>(span: Span<TData>): Promise<void> {
    return this.#processor.onSpanStart(span);
  }
  dispatchSpanEnd<TData extends SpanData>(span: Span<TData>): Promise<void> {
    return this.#processor.onSpanEnd(span);
  }

  /** Once there is something to export: start the processors, and flush what is queued before Node exits. */
  #startExportOnExit(): void {
    this.#processor.start();
    if (this.#flushOnExit) return;
    this.#flushOnExit = true;
    const process = (globalThis as { process?: { once?: (event: string, listener: () => void) => void } }).process;
    process?.once?.('beforeExit', () => void this.forceFlush());
  }
}

function disabledByEnvironment(): boolean {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.OPENAI_AGENTS_DISABLE_TRACING;
  return value === 'true' || value === '1';
}
