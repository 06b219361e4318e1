import * as Effect from 'effect/Effect';
import * as Tracer from 'effect/Tracer';
import type { RunConfig, RunOptions } from '../../definitions/runConfig.js';
import { installedRunTracing, type RunTraceSettings } from '../../definitions/runTracing.js';
import { CurrentRunTrace } from './loop/span.js';
import type { RunRecord } from '../../state/internal/runRecord.js';

/**
 * Gives a run its tracer: the one in the run options or the runner's config, else a tracer in the
 * Effect context (`runEffect` users), else the installed tracing package's trace for this run.
 * Called when the run starts, so the trace or span around the call is captured there.
 */
export function tracedRun<A, E>(program: Effect.Effect<A, E>, config: RunConfig, options: RunOptions<any>, record: RunRecord): Effect.Effect<A, E> {
  const tracer = options.tracer ?? config.tracer;
  if (tracer) return program.pipe(Effect.withTracer(tracer));
  const tracing = installedRunTracing();
  if (!tracing) return program;
  const captured = tracing.capture();
  return Effect.flatMap(Effect.tracer, (current) => {
    if (current !== Tracer.nativeTracer) return program;
    const trace = tracing.startRun(traceSettings(config, options, record), captured);
    if (!trace) return program;
    record.trace = trace.serialized;
    return program.pipe(Effect.withTracer(trace.tracer), Effect.provideService(CurrentRunTrace, trace));
  });
}

function traceSettings(config: RunConfig, options: RunOptions<any>, record: RunRecord): RunTraceSettings {
  const tracing = { ...config.tracing, ...options.tracing };
  return {
    disabled: options.tracingDisabled ?? config.tracingDisabled ?? false,
    // The reference's default: spans carry inputs and outputs unless told not to.
    includeSensitiveData: options.traceIncludeSensitiveData ?? config.traceIncludeSensitiveData ?? true,
    workflowName: options.workflowName ?? config.workflowName,
    traceId: options.traceId ?? config.traceId,
    groupId: options.groupId ?? config.groupId,
    metadata: options.traceMetadata ?? config.traceMetadata,
    apiKey: tracing.apiKey,
    includeTaskAndTurnSpans: tracing.includeTaskAndTurnSpans,
    resumedTrace: record.trace,
  };
}
