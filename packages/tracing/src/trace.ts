import { NOOP_TRACE_OR_SPAN_ID, generateTraceId } from './ids.js';
import { notify } from './internal/notify.js';
import { defaultSink } from './internal/defaultSink.js';

/** What a trace reports its start and end to (a `TracingProcessor`). */
export interface TraceSink {
  onTraceStart(trace: Trace): Promise<void>;
  onTraceEnd(trace: Trace): Promise<void>;
}

export interface TraceOptions {
  traceId?: string;
  name?: string;
  groupId?: string;
  metadata?: Record<string, any>;
  started?: boolean;
  tracingApiKey?: string;
}

/** One end-to-end workflow (a run, or several inside `withTrace`): the root of its spans. */
export class Trace {
  readonly type = 'trace' as const;
  traceId: string;
  name: string;
  groupId: string | null;
  metadata?: Record<string, any>;
  /** The key this trace is exported with, when it is not the exporter's own. */
  tracingApiKey?: string;
  readonly #processor: TraceSink | undefined;
  #started: boolean;

  constructor(options: TraceOptions = {}, processor?: TraceSink) {
    this.traceId = options.traceId ?? generateTraceId();
    this.name = options.name ?? 'Agent workflow';
    this.groupId = options.groupId ?? null;
    this.metadata = options.metadata ?? {};
    if (options.tracingApiKey !== undefined) this.tracingApiKey = options.tracingApiKey;
    this.#processor = processor;
    this.#started = options.started ?? false;
  }

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    const processor = this.#processor ?? defaultSink();
    notify(processor, processor.onTraceStart, this);
  }

  async end(): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    const processor = this.#processor ?? defaultSink();
    notify(processor, processor.onTraceEnd, this);
  }

  clone(): Trace {
    return new Trace(
      {
        traceId: this.traceId,
        name: this.name,
        ...(this.groupId !== null ? { groupId: this.groupId } : {}),
        ...(this.metadata !== undefined ? { metadata: this.metadata } : {}),
        started: this.#started,
        ...(this.tracingApiKey !== undefined ? { tracingApiKey: this.tracingApiKey } : {}),
      },
      this.#processor,
    );
  }

  /** The ingest's (and the run state's) shape; the API key only when asked for. */
  toJSON(options: { includeTracingApiKey?: boolean } = {}): object | null {
    return {
      object: this.type,
      id: this.traceId,
      workflow_name: this.name,
      group_id: this.groupId,
      metadata: this.metadata,
      ...(options.includeTracingApiKey && this.tracingApiKey !== undefined ? { tracing_api_key: this.tracingApiKey } : {}),
    };
  }
}

/** A trace that records nothing (tracing disabled). */
export class NoopTrace extends Trace {
  constructor() {
    super({ traceId: NOOP_TRACE_OR_SPAN_ID });
  }
  override async start(): Promise<void> {}
  override async end(): Promise<void> {}
  override toJSON(): null {
    return null;
  }
}
