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

  async onTraceStart(trace: Trace): Promise<void> {
    await this.#each((processor) => processor.onTraceStart(trace));
  }
  async onTraceEnd(trace: Trace): Promise<void> {
    await this.#each((processor) => processor.onTraceEnd(trace));
  }
  async onSpanStart(span: Span<any>): Promise<void> {
    await this.#each((processor) => processor.onSpanStart(span));
  }
  async onSpanEnd(span: Span<any>): Promise<void> {
    await this.#each((processor) => processor.onSpanEnd(span));
  }
  async shutdown(timeout?: number): Promise<void> {
    await this.#each((processor) => processor.shutdown(timeout));
  }
  async forceFlush(): Promise<void> {
    await this.#each((processor) => processor.forceFlush());
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

  async #each(call: (processor: TracingProcessor) => Promise<void> | void): Promise<void> {
    const processors = this.#processors;
    if (processors.length === 1) return settle(processors[0]!, call);
    await Promise.all(processors.map((processor) => settle(processor, call)));
  }
}

async function settle(processor: TracingProcessor, call: (processor: TracingProcessor) => Promise<void> | void): Promise<void> {
  try {
    await call(processor);
  } catch (error) {
    warnOnce(processor, `Tracing processor ${processor.constructor?.name ?? ''} failed`, error);
  }
}

function guarded(processor: TracingProcessor, call: () => void): void {
  try {
    call();
  } catch (error) {
    warnOnce(processor, `Tracing processor ${processor.constructor?.name ?? ''} failed to start`, error);
  }
}
