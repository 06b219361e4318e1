import { OpenTelemetryTracingProcessor } from './openTelemetryTracingProcessor.js';
import { otlpSdk } from './internal/loadOpenTelemetry.js';

export interface OtlpTracingProcessorOptions {
  /** The collector's traces endpoint. Default: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `http://localhost:4318/v1/traces`. */
  url?: string;
  headers?: Record<string, string>;
  /** `service.name` of the exported spans. Default `'baton'`. */
  serviceName?: string;
  /** See `OpenTelemetryTracingProcessorOptions.maxOpenSpans` (default 10000). */
  maxOpenSpans?: number;
  /** See `OpenTelemetryTracingProcessorOptions.maxSpanAgeMs` (default one hour). */
  maxSpanAgeMs?: number;
}

/**
 * Exports Baton's traces over OTLP/HTTP (JSON) to an OpenTelemetry collector, or any backend that
 * speaks it (Jaeger, Honeycomb, Grafana Tempo, Datadog): the OpenTelemetry SDK's own exporter and
 * batching. For an application that already has a tracer provider, use
 * `OpenTelemetryTracingProcessor` with it instead.
 *
 * Needs the optional peers `@opentelemetry/api`, `@opentelemetry/sdk-trace`,
 * `@opentelemetry/resources` and `@opentelemetry/exporter-trace-otlp-http` (an error names the
 * missing ones).
 */
export function otlpTracingProcessor(options: OtlpTracingProcessorOptions = {}): OpenTelemetryTracingProcessor {
  const { OTLPTraceExporter, resourceFromAttributes, BatchSpanProcessor, TracerProvider } = otlpSdk();
  const exporter = new OTLPTraceExporter({ ...(options.url ? { url: options.url } : {}), ...(options.headers ? { headers: options.headers } : {}) });
  const tracerProvider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName ?? 'baton' }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  return new OpenTelemetryTracingProcessor({
    tracerProvider,
    ...(options.maxOpenSpans !== undefined ? { maxOpenSpans: options.maxOpenSpans } : {}),
    ...(options.maxSpanAgeMs !== undefined ? { maxSpanAgeMs: options.maxSpanAgeMs } : {}),
  });
}
