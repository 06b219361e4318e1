import type { Tracer, TracerProvider } from '@opentelemetry/api';
import type { TracingProcessor } from '../processor.js';
import type { Span } from '../span.js';
import type { SpanData } from '../spanData.js';
import type { Trace } from '../trace.js';
import { otelSpanOf } from './genAiAttributes.js';
import { OpenSpans } from './internal/openSpans.js';
import { openTelemetryApi, SPAN_STATUS_ERROR } from './internal/loadOpenTelemetry.js';

export interface OpenTelemetryTracingProcessorOptions {
  /** Where spans go: your application's tracer provider. Default: the global one (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** The instrumentation scope name. Default `'@baton/tracing'`. */
  name?: string;
  /**
   * At most this many spans (and traces) are held open waiting for their end; one more ends the
   * oldest with an error status (`baton.span.abandoned`). Default 10000.
   */
  maxOpenSpans?: number;
  /**
   * A span still open after this many milliseconds is ended (error status, `baton.span.abandoned`)
   * when the next span starts. Default 3600000 (one hour); `Infinity` keeps spans open for ever.
   */
  maxSpanAgeMs?: number;
}

/**
 * Turns Baton's traces into OpenTelemetry spans on a tracer provider — yours, with whatever
 * exporters it has — named and attributed after the GenAI semantic conventions. A trace becomes a
 * span (a child of your active span, if a run starts inside one); every span keeps its parent,
 * start and end time and error.
 *
 * Needs the optional peer `@opentelemetry/api` (loaded when the processor is made; the error says
 * what to install when it is missing).
 */
export class OpenTelemetryTracingProcessor implements TracingProcessor {
  readonly #tracer: Tracer;
  readonly #provider: TracerProvider;
  /** Open OpenTelemetry spans by Baton trace and span id (with the context their children start in); entries leave as the spans end. */
  readonly #open: OpenSpans;
  readonly #api = openTelemetryApi();

  constructor(options: OpenTelemetryTracingProcessorOptions = {}) {
    this.#open = new OpenSpans({
      maxOpenSpans: positive(options.maxOpenSpans ?? 10_000, 'maxOpenSpans', true),
      maxSpanAgeMs: positive(options.maxSpanAgeMs ?? 3_600_000, 'maxSpanAgeMs', false),
    });
    this.#provider = options.tracerProvider ?? this.#api.trace.getTracerProvider();
    this.#tracer = this.#provider.getTracer(options.name ?? '@baton/tracing');
  }

  /** Called as the trace starts, in the caller's context: inside a span of your own, the trace hangs from it. */
  async onTraceStart(trace: Trace): Promise<void> {
    const span = this.#tracer.startSpan(trace.name, {
      attributes: {
        'baton.trace.id': trace.traceId,
        ...(trace.groupId ? { 'gen_ai.conversation.id': trace.groupId } : {}),
        ...Object.fromEntries(Object.entries(trace.metadata ?? {}).map(([key, value]) => [`baton.trace.metadata.${key}`, String(value)])),
      },
    });
    this.#open.open(trace.traceId, span);
  }

  async onTraceEnd(trace: Trace): Promise<void> {
    this.#open.take(trace.traceId)?.span.end();
  }

  /** How many spans (and traces) are open, waiting for their end. */
  get openSpanCount(): number {
    return this.#open.size;
  }

  async onSpanStart(span: Span<any>): Promise<void> {
    const parent = this.#open.get(span.parentId ?? span.traceId);
    // The span is named (and described) when it ends, once its data is complete.
    const name = (span.spanData as SpanData).type;
    const startTime = timeOf(span.startedAt);
    const options = parent ? (startTime ? { startTime } : {}) : { root: true, ...(startTime ? { startTime } : {}) };
    const started = this.#tracer.startSpan(name, options, parent ? (parent.context ??= this.#api.trace.setSpan(this.#api.context.active(), parent.span)) : this.#api.context.active());
    this.#open.open(span.spanId, started);
  }

  async onSpanEnd(span: Span<any>): Promise<void> {
    const otelSpan = this.#open.take(span.spanId)?.span;
    if (!otelSpan) return;
    // Data is complete only now (outputs, usage, tools): name and attributes are set at the end.
    const { name, attributes } = otelSpanOf(span.spanData as SpanData);
    otelSpan.updateName(name);
    otelSpan.setAttributes(attributes);
    if (span.error) {
      otelSpan.setStatus({ code: SPAN_STATUS_ERROR, message: span.error.message });
      otelSpan.setAttribute('error.type', span.error.message);
    }
    otelSpan.end(timeOf(span.endedAt));
  }

  async forceFlush(): Promise<void> {
    await (this.#provider as { forceFlush?: () => Promise<void> }).forceFlush?.();
  }

  async shutdown(): Promise<void> {
    await (this.#provider as { shutdown?: () => Promise<void> }).shutdown?.();
  }
}

function positive(value: number, name: string, integer: boolean): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new TypeError(`OpenTelemetryTracingProcessor: ${name} must be a ${integer ? 'whole ' : ''}number > 0, got ${String(value)}.`);
  }
  return value;
}

function timeOf(iso: string | null): Date | undefined {
  return iso ? new Date(iso) : undefined;
}
