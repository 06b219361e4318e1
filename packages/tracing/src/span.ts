import type { SpanData, SpanError } from './spanData.js';
import { NOOP_TRACE_OR_SPAN_ID, generateSpanId } from './ids.js';
import { notify } from './internal/notify.js';

/** What a span reports its start and end to (a `SpanSink`). */
export interface SpanSink {
  onSpanStart(span: Span<any>): Promise<void>;
  onSpanEnd(span: Span<any>): Promise<void>;
}

export interface SpanOptions<TData extends SpanData> {
  traceId: string;
  spanId?: string | undefined;
  parentId?: string | undefined;
  data: TData;
  traceMetadata?: Record<string, any> | undefined;
  startedAt?: string | undefined;
  endedAt?: string | undefined;
  error?: SpanError | undefined;
  tracingApiKey?: string | undefined;
}

/** One timed operation inside a trace. `start()` and `end()` notify the processor. */
export class Span<TData extends SpanData> {
  readonly type = 'trace.span' as const;
  readonly #traceId: string;
  readonly #spanId: string;
  readonly #parentId: string | null;
  readonly #data: TData;
  readonly #traceMetadata: Record<string, any> | undefined;
  readonly #tracingApiKey: string | undefined;
  readonly #processor: SpanSink;
  #startedAt: string | null;
  #endedAt: string | null;
  #error: SpanError | null;
  #previousSpan: Span<any> | undefined;

  constructor(options: SpanOptions<TData>, processor: SpanSink) {
    this.#traceId = options.traceId;
    this.#spanId = options.spanId ?? generateSpanId();
    this.#parentId = options.parentId ?? null;
    this.#data = options.data;
    this.#traceMetadata = options.traceMetadata;
    this.#tracingApiKey = options.tracingApiKey;
    this.#processor = processor;
    this.#startedAt = options.startedAt ?? null;
    this.#endedAt = options.endedAt ?? null;
    this.#error = options.error ?? null;
  }

  get traceId(): string {
    return this.#traceId;
  }
  get spanId(): string {
    return this.#spanId;
  }
  get parentId(): string | null {
    return this.#parentId;
  }
  /** Mutable while the span is open: fields filled in as the operation goes. */
  get spanData(): TData {
    return this.#data;
  }
  get traceMetadata(): Record<string, any> | undefined {
    return this.#traceMetadata;
  }
  /** The key this span is exported with, when it is not the exporter's own. Never in `toJSON()`. */
  get tracingApiKey(): string | undefined {
    return this.#tracingApiKey;
  }
  /** The span that was current before this one was made current (`setCurrentSpan`). */
  get previousSpan(): Span<any> | undefined {
    return this.#previousSpan;
  }
  set previousSpan(span: Span<any> | undefined) {
    this.#previousSpan = span;
  }
  get startedAt(): string | null {
    return this.#startedAt;
  }
  get endedAt(): string | null {
    return this.#endedAt;
  }
  get error(): SpanError | null {
    return this.#error;
  }

  start(): void {
    if (this.#startedAt !== null) return;
    this.#startedAt = new Date().toISOString();
    notify(this.#processor, this.#processor.onSpanStart, this);
  }

  end(): void {
    if (this.#endedAt !== null) return;
    this.#endedAt = new Date().toISOString();
    notify(this.#processor, this.#processor.onSpanEnd, this);
  }

  setError(error: SpanError): void {
    this.#error = error;
  }

  clone(): Span<TData> {
    const copy = new Span<TData>(
      {
        traceId: this.#traceId,
        spanId: this.#spanId,
        ...(this.#parentId !== null ? { parentId: this.#parentId } : {}),
        data: this.#data,
        ...(this.#traceMetadata !== undefined ? { traceMetadata: this.#traceMetadata } : {}),
        ...(this.#startedAt !== null ? { startedAt: this.#startedAt } : {}),
        ...(this.#endedAt !== null ? { endedAt: this.#endedAt } : {}),
        ...(this.#error !== null ? { error: this.#error } : {}),
        ...(this.#tracingApiKey !== undefined ? { tracingApiKey: this.#tracingApiKey } : {}),
      },
      this.#processor,
    );
    copy.previousSpan = this.#previousSpan?.clone();
    return copy;
  }

  /** The ingest's shape. Task and turn spans go out as custom spans; `_` fields stay in process. */
  toJSON(): object | null {
    return {
      object: this.type,
      id: this.#spanId,
      trace_id: this.#traceId,
      parent_id: this.#parentId,
      started_at: this.#startedAt,
      ended_at: this.#endedAt,
      span_data: exportedSpanData(this.#data),
      error: this.#error,
    };
  }
}

/** A span that records nothing (tracing disabled). */
export class NoopSpan<TData extends SpanData> extends Span<TData> {
  constructor(data: TData, processor: SpanSink) {
    super({ traceId: NOOP_TRACE_OR_SPAN_ID, spanId: NOOP_TRACE_OR_SPAN_ID, data }, processor);
  }
  override start(): void {}
  override end(): void {}
  override setError(): void {}
  override toJSON(): null {
    return null;
  }
}

function exportedSpanData(data: SpanData): Record<string, unknown> {
  if (data.type === 'task' || data.type === 'turn') {
    const { type, usage, ...fields } = data as SpanData & { usage?: unknown };
    return { type: 'custom', name: type, data: { sdk_span_type: type, ...fields, ...(usage ? { usage } : {}) } };
  }
  const exported: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!key.startsWith('_')) exported[key] = value;
  return exported;
}
