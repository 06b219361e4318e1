import * as Cause from 'effect/Cause';
import * as Context from 'effect/Context';
import * as Exit from 'effect/Exit';
import * as Option from 'effect/Option';
import * as Tracer from 'effect/Tracer';
import { InitialSpanAttributes, installRunTracing, type RunTrace, type RunTraceSettings, type RunTracing, type SerializedTrace } from '@baton/core/internal';
import { Span } from '../span.js';
import type { SpanData } from '../spanData.js';
import { NoopTrace, Trace } from '../trace.js';
import { getCurrentTraceContext, withSpanContext, type TraceContextSnapshot } from '../context.js';
import type { TraceProvider } from '../traceProvider.js';
import { applyAttribute, spanDataFor, spanErrorFor, UsageTally, type MappingSettings, type UsageLike } from './spanMapping.js';

/** Hooks a provider into every Baton run started from now on. */
export function installTracing(provider: TraceProvider): void {
  installRunTracing(new ProviderRunTracing(provider));
}

/** Each reference span made from a loop span, to its loop span: usage climbs from nested runs too. */
const loopSpanOf = new WeakMap<Span<any>, LoopSpan>();

class ProviderRunTracing implements RunTracing {
  constructor(readonly provider: TraceProvider) {}

  capture = (): unknown => getCurrentTraceContext();

  startRun(settings: RunTraceSettings, captured: unknown): RunTrace | undefined {
    if (settings.disabled || this.provider.disabled) return undefined;
    const ambient = captured as TraceContextSnapshot | null;
    const resumed = settings.resumedTrace;
    // A nested agent-tool run resumed inside its parent's span: it is already in that trace.
    const inResumedTrace = ambient !== null && resumed !== undefined && ambient.trace.traceId === resumed.id;
    if (resumed && !inResumedTrace) {
      // A paused run's trace goes on where it stopped (the reference's behaviour).
      const trace = new Trace(
        {
          traceId: resumed.id,
          name: resumed.workflow_name,
          ...(resumed.group_id !== null ? { groupId: resumed.group_id } : {}),
          ...(resumed.metadata ? { metadata: { ...resumed.metadata } } : {}),
          ...(settings.apiKey ?? resumed.tracing_api_key ? { tracingApiKey: (settings.apiKey ?? resumed.tracing_api_key)! } : {}),
        },
        this.provider.processor,
      );
      return new ProviderRunTrace(this.provider, trace, undefined, true, settings);
    }
    if (ambient) {
      if (ambient.trace instanceof NoopTrace) return undefined;
      return new ProviderRunTrace(this.provider, ambient.trace, ambient.span ?? undefined, false, settings);
    }
    const trace = this.provider.createTrace({
      name: settings.workflowName ?? 'Agent workflow',
      ...(settings.traceId !== undefined ? { traceId: settings.traceId } : {}),
      ...(settings.groupId !== undefined ? { groupId: settings.groupId } : {}),
      ...(settings.metadata !== undefined ? { metadata: { ...settings.metadata } } : {}),
      ...(settings.apiKey !== undefined ? { tracingApiKey: settings.apiKey } : {}),
    });
    if (trace instanceof NoopTrace) return undefined;
    return new ProviderRunTrace(this.provider, trace, undefined, true, settings);
  }
}

/** One run's trace: its Effect tracer makes the reference's spans from the loop's spans. */
class ProviderRunTrace implements RunTrace {
  readonly tracer: Tracer.Tracer;
  readonly serialized: SerializedTrace;
  readonly mapping: MappingSettings;

  constructor(
    readonly provider: TraceProvider,
    readonly trace: Trace,
    /** The span the run was started inside (a tool's span for a nested agent run), if any. */
    readonly parent: Span<any> | undefined,
    /** Whether this run made the trace (and so ends it). */
    readonly owned: boolean,
    settings: RunTraceSettings,
  ) {
    this.mapping = {
      // The task span is named after the run's workflow, even inside someone else's trace.
      workflowName: settings.workflowName ?? 'Agent workflow',
      includeSensitiveData: settings.includeSensitiveData,
      includeTaskAndTurnSpans: settings.includeTaskAndTurnSpans ?? true,
    };
    this.serialized = {
      object: 'trace',
      id: trace.traceId,
      workflow_name: trace.name,
      group_id: trace.groupId,
      ...(trace.metadata ? { metadata: trace.metadata } : {}),
      ...(trace.tracingApiKey !== undefined ? { tracing_api_key: trace.tracingApiKey } : {}),
    };
    this.tracer = Tracer.make({ span: (options) => new LoopSpan(this, options) });
    if (owned) void trace.start();
  }

  enter<A>(span: Tracer.AnySpan | undefined, thunk: () => A): A {
    const current = span instanceof LoopSpan ? span.nearestReferenceSpan() : undefined;
    return withSpanContext(this.trace, current ?? this.parent ?? null, thunk);
  }
}

type SpanOptions = Parameters<Tracer.Tracer['span']>[0];

const NO_ATTRIBUTES: Readonly<Record<string, unknown>> = Object.freeze({});

/** An Effect span of the loop, and the reference span it stands for (when its kind has one). */
class LoopSpan implements Tracer.Span {
  readonly _tag = 'Span' as const;
  readonly name: string;
  readonly parent: Option.Option<Tracer.AnySpan>;
  readonly annotations: Context.Context<never>;
  readonly links: Tracer.SpanLink[];
  readonly sampled: boolean;
  readonly kind: Tracer.SpanKind;
  readonly attributes = new Map<string, unknown>();
  readonly spanId: string;
  readonly traceId: string;
  status: Tracer.SpanStatus;
  readonly span: Span<any> | undefined;
  readonly usage: UsageTally | undefined;
  /** The attributes the span started with (Effect sets them again right after; applied once). */
  readonly #initial: Readonly<Record<string, unknown>>;

  constructor(
    readonly run: ProviderRunTrace,
    options: SpanOptions,
  ) {
    this.name = options.name;
    this.parent = options.parent;
    this.annotations = options.annotations;
    this.links = options.links;
    this.sampled = options.sampled;
    this.kind = options.kind;
    this.status = { _tag: 'Started', startTime: options.startTime };
    this.traceId = run.trace.traceId;
    const initial: Readonly<Record<string, unknown>> = Context.getOrUndefined(options.annotations, InitialSpanAttributes) ?? NO_ATTRIBUTES;
    this.#initial = initial;
    const data = spanDataFor(options.name, initial, run.mapping);
    if (data) {
      for (const key in initial) applyAttribute(data, key, initial[key], run.mapping);
      const parent = this.#referenceParent();
      this.span = run.provider.createSpan({ data }, parent ?? run.trace);
      loopSpanOf.set(this.span, this);
      if (data.type === 'task' || data.type === 'turn') this.usage = new UsageTally();
      this.span.start();
    }
    this.spanId = this.span?.spanId ?? run.provider.generateSpanId();
  }

  /** The reference span of this loop span, or of the nearest ancestor that has one. */
  nearestReferenceSpan(): Span<any> | undefined {
    return this.span ?? this.#referenceParent();
  }

  #referenceParent(): Span<any> | undefined {
    const parent = Option.getOrUndefined(this.parent);
    if (parent instanceof LoopSpan) return parent.nearestReferenceSpan();
    return this.run.parent;
  }

  attribute(key: string, value: unknown): void {
    this.attributes.set(key, value);
    if (this.#initial[key] === value && value !== undefined) return;
    if (this.span) applyAttribute(this.span.spanData as SpanData, key, value, this.run.mapping);
    if (key === 'baton.model.response') this.#recordUsage((value as { usage?: UsageLike }).usage);
    // A call that failed for good still cost what its attempts were billed.
    if (key === 'baton.model.failed_usage') this.#recordUsage(value as UsageLike);
  }

  event(): void {}

  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    this.links.push(...links);
  }

  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    this.status = { _tag: 'Ended', startTime: this.status.startTime, endTime, exit };
    const span = this.span;
    if (span) {
      const data = span.spanData as SpanData;
      if (this.usage && !this.usage.empty) (data as { usage?: unknown }).usage = data.type === 'task' ? this.usage.task() : this.usage.turn();
      const error = spanErrorFor(data, this.attributes, failureOf(exit), this.run.mapping);
      if (error) span.setError(error);
      span.end();
    }
    if (Option.isNone(this.parent) && this.run.owned) void this.run.trace.end();
  }

  /** A model call's usage counts for every turn and task above it, across nested agent runs. */
  #recordUsage(usage: UsageLike | undefined): void {
    if (!usage) return;
    let current: Span<any> | undefined = this.nearestReferenceSpan();
    while (current) {
      const owner = loopSpanOf.get(current);
      owner?.usage?.add(usage);
      current = owner ? owner.#referenceParent() : undefined;
    }
  }
}

/**
 * What a span's effect failed with; none for success or interruption (a cancelled run is not an
 * error here). An Option, as any value can be a failure, `undefined` included.
 */
function failureOf(exit: Exit.Exit<unknown, unknown>): Option.Option<unknown> {
  if (Exit.isSuccess(exit)) return Option.none();
  const error = Cause.findErrorOption(exit.cause);
  if (Option.isSome(error)) return Option.some(publicError(error.value));
  return Cause.hasInterruptsOnly(exit.cause) ? Option.none() : Option.some(Cause.squash(exit.cause));
}

/** Core's carrier of a foreign error holds it in `cause`. */
function publicError(error: unknown): unknown {
  if (typeof error === 'object' && error !== null && (error as { _tag?: unknown })._tag === 'ExternalFailure') return (error as { cause?: unknown }).cause;
  return error;
}
