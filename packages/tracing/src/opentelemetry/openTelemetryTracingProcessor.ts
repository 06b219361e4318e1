import { SpanStatusCode, context as otelContext, trace as otelTrace, type Context, type Span as OtelSpan, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { TracingProcessor } from '../processor.js';
import type { Span } from '../span.js';
import type { SpanData } from '../spanData.js';
import type { Trace } from '../trace.js';
import { otelSpanOf } from './genAiAttributes.js';

export interface OpenTelemetryTracingProcessorOptions {
  /** Where spans go: your application's tracer provider. Default: the global one (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** The instrumentation scope name. Default `'@baton/tracing'`. */
  name?: string;
}

/**
 * Turns Baton's traces into OpenTelemetry spans on a tracer provider — yours, with whatever
 * exporters it has — named and attributed after the GenAI semantic conventions. A trace becomes a
 * span (a child of your active span, if a run starts inside one); every span keeps its parent,
 * start and end time and error.
 */
export class OpenTelemetryTracingProcessor implements TracingProcessor {
  readonly #tracer: Tracer;
  readonly #provider: TracerProvider;
  /** Open OpenTelemetry spans by Baton trace and span id (with the context their children start in); entries leave as the spans end. */
  readonly #open = new Map<string, OpenSpan>();

  constructor(options: OpenTelemetryTracingProcessorOptions = {}) {
    this.#provider = options.tracerProvider ?? otelTrace.getTracerProvider();
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
    this.#open.set(trace.traceId, { span, context: undefined });
  }

  async onTraceEnd(trace: Trace): Promise<void> {
    this.#open.get(trace.traceId)?.span.end();
    this.#open.delete(trace.traceId);
  }

  async onSpanStart(span: Span<any>): Promise<void> {
    const parent = this.#open.get(span.parentId ?? span.traceId);
    // The span is named (and described) when it ends, once its data is complete.
    const name = (span.spanData as SpanData).type;
    const startTime = timeOf(span.startedAt);
    const options = parent ? (startTime ? { startTime } : {}) : { root: true, ...(startTime ? { startTime } : {}) };
    const started = this.#tracer.startSpan(name, options, parent ? (parent.context ??= otelTrace.setSpan(otelContext.active(), parent.span)) : otelContext.active());
    this.#open.set(span.spanId, { span: started, context: undefined });
  }

  async onSpanEnd(span: Span<any>): Promise<void> {
    const otelSpan = this.#open.get(span.spanId)?.span;
    if (!otelSpan) return;
    this.#open.delete(span.spanId);
    // Data is complete only now (outputs, usage, tools): name and attributes are set at the end.
    const { name, attributes } = otelSpanOf(span.spanData as SpanData);
    otelSpan.updateName(name);
    otelSpan.setAttributes(attributes);
    if (span.error) {
      otelSpan.setStatus({ code: SpanStatusCode.ERROR, message: span.error.message });
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

interface OpenSpan {
  readonly span: OtelSpan;
  context: Context | undefined;
}

function timeOf(iso: string | null): Date | undefined {
  return iso ? new Date(iso) : undefined;
}
