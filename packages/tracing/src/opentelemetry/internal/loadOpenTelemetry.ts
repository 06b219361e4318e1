import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as SdkTrace from '@opentelemetry/sdk-trace';

/**
 * OpenTelemetry is an optional peer of `@baton/tracing`: `npm install @baton/agents` does not bring
 * it. It is loaded here, the first time a processor is made, so importing
 * `@baton/tracing/opentelemetry` costs nothing and a missing package fails with the command that
 * adds it. (The API keeps its state on `globalThis`, so this copy and the application's share the
 * global tracer provider and context.)
 */
const load = createRequire(import.meta.url);

function required<T>(names: readonly string[], what: string): T[] {
  const missing: string[] = [];
  const modules = names.map((name) => {
    try {
      return load(name) as T;
    } catch (error) {
      // Only the package itself missing; a broken install of it is reported as it is.
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !String((error as Error).message).includes(`'${name}'`)) throw error;
      missing.push(name);
      return undefined as T;
    }
  });
  if (missing.length > 0) {
    throw new Error(
      `${what} needs ${missing.join(', ')}, an optional peer dependency of @baton/tracing that is not installed. ` +
        `Install it with: npm install ${missing.join(' ')}`,
    );
  }
  return modules;
}

let api: typeof OtelApi | undefined;

/** `@opentelemetry/api`, for `OpenTelemetryTracingProcessor`. */
export function openTelemetryApi(): typeof OtelApi {
  api ??= required<typeof OtelApi>(['@opentelemetry/api'], 'OpenTelemetryTracingProcessor')[0]!;
  return api;
}

export interface OtlpSdk {
  OTLPTraceExporter: typeof OtlpHttp.OTLPTraceExporter;
  resourceFromAttributes: typeof Resources.resourceFromAttributes;
  BatchSpanProcessor: typeof SdkTrace.BatchSpanProcessor;
  TracerProvider: typeof SdkTrace.TracerProvider;
}

/** The OpenTelemetry SDK pieces `otlpTracingProcessor` builds its exporter from. */
export function otlpSdk(): OtlpSdk {
  const [otlp, resources, sdk] = required<any>(
    ['@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources', '@opentelemetry/sdk-trace', '@opentelemetry/api'],
    'otlpTracingProcessor',
  );
  return {
    OTLPTraceExporter: otlp.OTLPTraceExporter,
    resourceFromAttributes: resources.resourceFromAttributes,
    BatchSpanProcessor: sdk.BatchSpanProcessor,
    TracerProvider: sdk.TracerProvider,
  };
}

/** `SpanStatusCode.ERROR` of the OpenTelemetry API (a stable protocol value), without loading it. */
export const SPAN_STATUS_ERROR = 2 as OtelApi.SpanStatusCode.ERROR;
