/**
 * `@baton/tracing/opentelemetry`: Baton's traces as OpenTelemetry spans (GenAI semantic
 * conventions), on your tracer provider or exported over OTLP/HTTP. A subpath, so the
 * OpenTelemetry SDK loads only for those who use it.
 */
export { OpenTelemetryTracingProcessor, type OpenTelemetryTracingProcessorOptions } from './openTelemetryTracingProcessor.js';
export { otlpTracingProcessor, type OtlpTracingProcessorOptions } from './otlpTracingProcessor.js';
