import type * as Tracer from 'effect/Tracer';
import type { SerializedTrace } from '@baton/types';

export type { SerializedTrace };

/**
 * The seam between the run loop and a tracing package (`@baton/tracing`). Core makes Effect spans
 * only; an installed `RunTracing` turns them into traces for its processors. Core never imports a
 * tracing package: the package installs itself here when it is first used.
 */
export interface RunTracing {
  /**
   * Called synchronously as a run is started, in the caller's async context: what the run may join
   * (the trace or span around the call). Must be cheap.
   */
  readonly capture: () => unknown;
  /** The run's trace, or `undefined` when this run is not traced. */
  readonly startRun: (settings: RunTraceSettings, captured: unknown) => RunTrace | undefined;
}

/** A run's tracing settings: the run options over the runner's, with the state's trace on resume. */
export interface RunTraceSettings {
  readonly disabled: boolean;
  readonly includeSensitiveData: boolean;
  readonly workflowName: string | undefined;
  readonly traceId: string | undefined;
  readonly groupId: string | undefined;
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly apiKey: string | undefined;
  readonly includeTaskAndTurnSpans: boolean | undefined;
  /** The trace a paused run was part of, kept in its state: a resumed run continues it. */
  readonly resumedTrace: SerializedTrace | undefined;
}

/** One traced run. */
export interface RunTrace {
  /** Receives the run's Effect spans. */
  readonly tracer: Tracer.Tracer;
  /** Runs user code (a tool, a guardrail, a callback) with `span` as the current span around it. */
  readonly enter: <A>(span: Tracer.AnySpan | undefined, thunk: () => A) => A;
  /** The trace to keep in the run's state. Never holds an API key unless asked to. */
  readonly serialized: SerializedTrace;
}

let installed: RunTracing | undefined;

/** Installs the tracing every run started afterwards uses (`undefined` removes it). */
export function installRunTracing(tracing: RunTracing | undefined): void {
  installed = tracing;
}

/** The installed tracing, if any. */
export function installedRunTracing(): RunTracing | undefined {
  return installed;
}
