import type { TracingProcessor } from './processor.js';
import type { Span } from './span.js';
import type { Trace } from './trace.js';
import { warnOnce } from './internal/log.js';

/**
 * Forwards every call to each of its processors. One processor that throws or rejects neither
 * stops the others nor reaches the run: its first failure is logged.
 */
export class MultiTracingProcessor implements TracingProcessor {
  #processors: readonly TracingProcessor[] = [];

  start(): void {
    for (const processor of this.#processors) guarded(processor, () => processor.start?.());
  }

  addTraceProcessor(processor: TracingProcessor): void {
    this.#processors = [...this.#processors, processor];
  }

  setProcessors(processors: TracingProcessor[]): void {
    this.#processors = [...processors];
  }

  /** The processors calls go to now. */
  get processors(): readonly TracingProcessor[] {
    return this.#processors;
  }

  onTraceStart(trace: Trace): Promise<void> {
    return this.#each((processor) => processor.onTraceStart(trace));
  }
  onTraceEnd(trace: Trace): Promise<void> {
    return this.#each((processor) => processor.onTraceEnd(trace));
  }
  onSpanStart(span: Span<any>): Promise<void> {
    return this.#each((processor) => processor.onSpanStart(span));
  }
  onSpanEnd(span: Span<any>): Promise<void> {
    return this.#each((processor) => processor.onSpanEnd(span));
  }
  shutdown(timeout?: number): Promise<void> {
    return this.#each((processor) => processor.shutdown(timeout));
  }
  forceFlush(): Promise<void> {
    return this.#each((processor) => processor.forceFlush());
  }

  // The reference's names for the same calls.
  dispatchTrace(trace: Trace): Promise<void> {
    return this.onTraceStart(trace);
  }
  dispatchSpan(span: Span<any>): Promise<void> {
    return this.onSpanEnd(span);
  }
  dispatchSpanStart(span: Span<any>): Promise<void> {
    return this.onSpanStart(span);
  }
  dispatchSpanEnd(span: Span<any>): Promise<void> {
    return this.onSpanEnd(span);
  }

  /** Each processor's call, its failure caught; one promise for all, not one per processor. */
  #each(call: (processor: TracingProcessor) => Promise<void> | void): Promise<void> {
    let pending: Promise<void>[] | undefined;
    for (const processor of this.#processors) {
      try {
        const result = call(processor);
        if (result !== undefined) (pending ??= []).push(result.catch((error: unknown) => reportFailure(processor, error)));
      } catch (error) {
        reportFailure(processor, error);
      }
    }
    return pending === undefined ? RESOLVED : pending.length === 1 ? pending[0]! : Promise.all(pending).then(() => undefined);
  }
}

const RESOLVED = Promise.resolve();

function reportFailure(processor: TracingProcessor, error: unknown): void {
  warnOnce(processor, `Tracing processor ${processor.constructor?.name ?? ''} failed`, error);
}

function guarded(processor: TracingProcessor, call: () => void): void {
  try {
    call();
  } catch (error) {
    warnOnce(processor, `Tracing processor ${processor.constructor?.name ?? ''} failed to start`, error);
  }
}
