import * as Cause from 'effect/Cause';
import * as Duration from 'effect/Duration';
import * as Effect from 'effect/Effect';
import * as Result from 'effect/Result';
import * as Schedule from 'effect/Schedule';
import { positiveInteger, retryAfterFromHeaders } from '@baton/core/internal';
import { BatchTraceProcessor } from './batchTraceProcessor.js';
import { setTraceProcessors } from './globalTracing.js';
import type { TracingExporter } from './processor.js';
import type { Span } from './span.js';
import type { Trace } from './trace.js';
import { logger } from './internal/log.js';

export const OPENAI_TRACING_INGEST_ENDPOINT = 'https://api.openai.com/v1/traces/ingest';

export interface OpenAITracingExporterOptions {
  /** Default: the key from `setTracingExportApiKey`, else `OPENAI_API_KEY`. A trace's own key wins. */
  apiKey?: string;
  organization?: string;
  project?: string;
  endpoint?: string;
  /** Attempts per batch, the first included. Default 3. */
  maxRetries?: number;
  /** Milliseconds before the first retry; doubles each time, with jitter. Default 1000. */
  baseDelay?: number;
  /** Longest wait between retries, in milliseconds. Default 30000. */
  maxDelay?: number;
}

let exportApiKey: string | undefined;

/** The key traces are exported with when neither the exporter nor the trace has one. */
export function setTracingExportApiKey(key: string): void {
  exportApiKey = key;
}

function defaultApiKey(): string | undefined {
  return exportApiKey ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.OPENAI_API_KEY;
}

/** A response the ingest asked us to try again (429, 5xx, or `x-should-retry: true`), and when it said to. */
class RetryableStatus {
  readonly _tag = 'RetryableStatus';
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | undefined,
  ) {}
}

/**
 * Posts traces and spans to OpenAI's traces ingest (`{ data: [...] }`, the reference's payload),
 * grouped by the API key each was made with. Retries failed posts with exponential backoff and
 * jitter; gives up after `maxRetries` with one error line. The key goes in the header only.
 */
export class OpenAITracingExporter implements TracingExporter {
  readonly #options: Required<Omit<OpenAITracingExporterOptions, 'apiKey'>> & { apiKey: string | undefined };
  #reportedNoKey = false;

  constructor(options: OpenAITracingExporterOptions = {}) {
    this.#options = {
      apiKey: options.apiKey,
      organization: options.organization ?? '',
      project: options.project ?? '',
      endpoint: options.endpoint ?? OPENAI_TRACING_INGEST_ENDPOINT,
      maxRetries: options.maxRetries === undefined ? 3 : positiveInteger(options.maxRetries, 'OpenAITracingExporter: maxRetries'),
      baseDelay: options.baseDelay ?? 1000,
      maxDelay: options.maxDelay ?? 30_000,
    };
  }

  async export(items: (Trace | Span<any>)[], signal?: AbortSignal): Promise<void> {
    const byKey = new Map<string | undefined, (Trace | Span<any>)[]>();
    for (const item of items) {
      const key = item.tracingApiKey;
      const group = byKey.get(key);
      if (group) group.push(item);
      else byKey.set(key, [item]);
    }
    for (const [itemKey, group] of byKey) {
      const apiKey = itemKey ?? this.#options.apiKey ?? defaultApiKey();
      if (!apiKey) {
        if (!this.#reportedNoKey) logger.error('OpenAI tracing exporter: no API key (setTracingExportApiKey or OPENAI_API_KEY); traces are not exported.');
        this.#reportedNoKey = true;
        continue;
      }
      const data = group.map((item) => item.toJSON()).filter((item) => item !== null);
      if (data.length === 0) continue;
      await this.#post(apiKey, JSON.stringify({ data }), signal);
    }
  }

  async #post(apiKey: string, body: string, signal: AbortSignal | undefined): Promise<void> {
    const { endpoint, organization, project, maxRetries, baseDelay, maxDelay } = this.#options;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${apiKey}`,
      'OpenAI-Beta': 'traces=v1',
      ...(organization ? { 'OpenAI-Organization': organization } : {}),
      ...(project ? { 'OpenAI-Project': project } : {}),
    };
    const attempt = Effect.tryPromise({
      try: (abort) => fetch(endpoint, { method: 'POST', headers, body, signal: signal ? AbortSignal.any([signal, abort]) : abort }),
      catch: (error) => error,
    }).pipe(
      Effect.flatMap((response) => {
        if (response.ok) return Effect.void;
        void response.body?.cancel().catch(() => {});
        const advice = response.headers.get('x-should-retry')?.trim().toLowerCase();
        const clientError = response.status >= 400 && response.status < 500;
        const retry = advice === 'true' || (advice !== 'false' && (!clientError || [408, 409, 429].includes(response.status)));
        return retry
          ? Effect.fail(new RetryableStatus(response.status, retryAfterFromHeaders(response.headers, Date.now())))
          : Effect.die(new Error(`the ingest answered ${response.status}`));
      }),
    );
    const backoff = Schedule.exponential(Duration.millis(baseDelay)).pipe(
      Schedule.jittered,
      // The server's Retry-After, when longer than the backoff; never more than maxDelay.
      Schedule.modifyDelay(({ duration, input }) => {
        const asked = input instanceof RetryableStatus && input.retryAfterMs !== undefined ? Duration.max(duration, Duration.millis(input.retryAfterMs)) : duration;
        return Effect.succeed(Duration.min(asked, Duration.millis(maxDelay)));
      }),
    );
    const retried = attempt.pipe(Effect.retry({ schedule: backoff, times: maxRetries - 1, while: () => !signal?.aborted }));
    const exit = await Effect.runPromiseExit(retried, signal ? { signal } : undefined);
    if (exit._tag === 'Success') return;
    const refused = Cause.findDefect(exit.cause);
    logger.error(
      Result.isSuccess(refused)
        ? `OpenAI tracing exporter: ${(refused.success as Error).message}, not retried; ${body.length} bytes dropped.`
        : `OpenAI tracing exporter: export failed after ${maxRetries} attempt(s); ${body.length} bytes dropped.`,
    );
  }
}

/** Exports every trace to OpenAI's dashboard through a `BatchTraceProcessor` (replacing other processors). */
export function setDefaultOpenAITracingExporter(): void {
  setTraceProcessors([new BatchTraceProcessor(new OpenAITracingExporter())]);
}
