import type { TracingExporter, TracingProcessor } from './processor.js';
import type { Span } from './span.js';
import type { Trace } from './trace.js';
import { UserError } from '@baton/types';
import { optionalPositiveNumber } from '@baton/core/internal';
import { logger, warnOnce } from './internal/log.js';

export interface BatchTraceProcessorOptions {
  /** Items held at most; more are dropped (with one warning) rather than growing memory. Default 8192. */
  maxQueueSize?: number;
  /** Items per export call. Default 128. */
  maxBatchSize?: number;
  /** Milliseconds between scheduled exports. Default 5000. */
  scheduleDelay?: number;
  /** Export early once the queue is this full (0–1). Default 0.7. */
  exportTriggerRatio?: number;
  /** Milliseconds an export may take before it is aborted (its batch is dropped). Default 30000. */
  exportTimeout?: number;
}

/**
 * Queues finished spans and started traces and hands them to an exporter in batches: on a timer,
 * when the queue fills up, on `forceFlush()` and on `shutdown()`. Never waits on the run: a slow or
 * broken exporter costs a dropped batch and a warning, and `shutdown` returns within its timeout.
 */
export class BatchTraceProcessor implements TracingProcessor {
  readonly #exporter: TracingExporter;
  readonly #maxQueueSize: number;
  readonly #maxBatchSize: number;
  readonly #scheduleDelay: number;
  readonly #triggerSize: number;
  readonly #exportTimeout: number;
  #queue: (Trace | Span<any>)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #exporting: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(exporter: TracingExporter, options: BatchTraceProcessorOptions = {}) {
    this.#exporter = exporter;
    this.#maxQueueSize = optionalPositiveNumber(options.maxQueueSize, 'BatchTraceProcessor: maxQueueSize') ?? 8192;
    this.#maxBatchSize = optionalPositiveNumber(options.maxBatchSize, 'BatchTraceProcessor: maxBatchSize') ?? 128;
    this.#scheduleDelay = optionalPositiveNumber(options.scheduleDelay, 'BatchTraceProcessor: scheduleDelay') ?? 5000;
    this.#exportTimeout = optionalPositiveNumber(options.exportTimeout, 'BatchTraceProcessor: exportTimeout') ?? 30_000;
    const ratio = options.exportTriggerRatio ?? 0.7;
    if (!(ratio > 0 && ratio <= 1)) throw new UserError(`BatchTraceProcessor: exportTriggerRatio must be in (0, 1], got ${String(ratio)}.`);
    this.#triggerSize = Math.max(1, Math.floor(this.#maxQueueSize * ratio));
  }

  start(): void {
    this.#schedule();
  }

  async onTraceStart(trace: Trace): Promise<void> {
    this.#add(trace);
  }
  async onTraceEnd(): Promise<void> {}
  async onSpanStart(): Promise<void> {}
  async onSpanEnd(span: Span<any>): Promise<void> {
    this.#add(span);
  }

  /** Exports everything queued now; returns when the exporter has answered (or timed out). */
  async forceFlush(): Promise<void> {
    await this.#flush();
  }

  /** Exports what is queued and stops; returns within `timeout` ms (default: the export timeout) whatever the exporter does. */
  async shutdown(timeout?: number): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await Promise.race([this.#flush(), delay(timeout ?? this.#exportTimeout)]);
  }

  #add(item: Trace | Span<any>): void {
    if (this.#closed) return;
    if (this.#queue.length >= this.#maxQueueSize) {
      warnOnce(this, `BatchTraceProcessor: queue full (${this.#maxQueueSize} items), dropping traces and spans`);
      return;
    }
    this.#queue.push(item);
    if (this.#queue.length >= this.#triggerSize) void this.#flush();
    else this.#schedule();
  }

  #schedule(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#flush();
    }, this.#scheduleDelay);
    // A pending export must not keep the process alive (the provider flushes before exit).
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Exports are one at a time, in order; each takes what is queued when its turn comes. */
  #flush(): Promise<void> {
    this.#exporting = this.#exporting.then(() => this.#exportQueued());
    return this.#exporting;
  }

  async #exportQueued(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatchSize);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`export timed out after ${this.#exportTimeout}ms`)), this.#exportTimeout);
      try {
        await Promise.race([
          this.#exporter.export(batch, controller.signal),
          new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true })),
        ]);
      } catch (error) {
        warnOnce(this.#exporter, `Tracing exporter failed, ${batch.length} items dropped`, error);
      } finally {
        clearTimeout(timer);
      }
    }
    logger.debug('BatchTraceProcessor: queue exported');
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    (timer as { unref?: () => void }).unref?.();
  });
}
