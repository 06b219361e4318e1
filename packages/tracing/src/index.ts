/**
 * `@baton/tracing`: the reference's tracing API on Baton's runs. Every run is a trace (or joins the
 * one around it); the loop's Effect spans become agent, turn, response / generation, function,
 * handoff and guardrail spans for the registered processors. Installed into core on first use.
 */
export { Span, NoopSpan, type SpanOptions, type SpanSink } from './span.js';
export { Trace, NoopTrace, type TraceOptions, type TraceSink } from './trace.js';
export type * from './spanData.js';
export type { TracingProcessor, TracingExporter } from './processor.js';
export { BatchTraceProcessor, type BatchTraceProcessorOptions } from './batchTraceProcessor.js';
export { MultiTracingProcessor } from './multiTracingProcessor.js';
export { ConsoleSpanExporter } from './consoleSpanExporter.js';
export { TraceProvider, type CreateSpanOptions, type TraceProviderOptions } from './traceProvider.js';
export { getGlobalTraceProvider } from './globalTraceProvider.js';
export {
  addErrorToCurrentSpan,
  getCurrentSpan,
  getCurrentTrace,
  getCurrentTraceContext,
  resetCurrentSpan,
  setCurrentSpan,
  setTracingContextStorage,
  withNewSpanContext,
  withTraceContext,
  type TraceContextSnapshot,
  type TracingContextStorage,
} from './context.js';
export { withTrace, getOrCreateTrace } from './withTrace.js';
export * from './createSpans.js';
export {
  addTraceProcessor,
  setTraceProcessors,
  setTracingDisabled,
  setTracingIdGenerator,
  startTraceExportLoop,
  dispatchTrace,
  dispatchSpan,
  dispatchSpanStart,
  dispatchSpanEnd,
} from './globalTracing.js';
export { generateTraceId, generateSpanId, generateGroupId, defaultTracingIdGenerator, type TracingIdGenerator } from './ids.js';
export {
  OpenAITracingExporter,
  setDefaultOpenAITracingExporter,
  setTracingExportApiKey,
  OPENAI_TRACING_INGEST_ENDPOINT,
  type OpenAITracingExporterOptions,
} from './openaiTracingExporter.js';
