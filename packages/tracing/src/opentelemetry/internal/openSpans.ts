import type { Context, Span as OtelSpan } from '@opentelemetry/api';
import { SPAN_STATUS_ERROR } from './loadOpenTelemetry.js';

/** An OpenTelemetry span started for a Baton trace or span, and the context its children start in. */
export interface OpenSpan {
  readonly span: OtelSpan;
  context: Context | undefined;
  /** When it was opened (`Date.now()`). */
  readonly openedAt: number;
}

export interface OpenSpanLimits {
  /** At most this many spans are held open; opening one more ends the oldest. */
  readonly maxOpenSpans: number;
  /** A span held longer than this (ms) is ended when the next one opens. `Infinity`: never. */
  readonly maxSpanAgeMs: number;
}

/**
 * The OpenTelemetry spans still waiting for their Baton span (or trace) to end, by Baton id. Bounded:
 * a span that never ends (a processor that missed an `onSpanEnd`, a run abandoned mid-way) would
 * otherwise be kept forever. One evicted for age or for room is ended at once, with an error status
 * saying why and `baton.span.abandoned` set, so it is exported rather than lost. The map keeps
 * insertion order, so the oldest entries are always at its front.
 */
export class OpenSpans {
  readonly #open = new Map<string, OpenSpan>();

  constructor(readonly limits: OpenSpanLimits) {}

  get size(): number {
    return this.#open.size;
  }

  get(id: string): OpenSpan | undefined {
    return this.#open.get(id);
  }

  /** Removes and returns the entry (the caller ends its span). */
  take(id: string): OpenSpan | undefined {
    const entry = this.#open.get(id);
    if (entry) this.#open.delete(id);
    return entry;
  }

  open(id: string, span: OtelSpan): void {
    const now = Date.now();
    this.#evictOlderThan(now - this.limits.maxSpanAgeMs);
    while (this.#open.size >= this.limits.maxOpenSpans) this.#evictOldest(`more than ${this.limits.maxOpenSpans} spans were open (maxOpenSpans)`);
    this.#open.set(id, { span, context: undefined, openedAt: now });
  }

  #evictOlderThan(cutoff: number): void {
    for (const [id, entry] of this.#open) {
      if (entry.openedAt >= cutoff) return;
      this.#open.delete(id);
      abandon(entry.span, `the span did not end within ${this.limits.maxSpanAgeMs} ms (maxSpanAgeMs)`);
    }
  }

  #evictOldest(why: string): void {
    const first = this.#open.entries().next();
    if (first.done) return;
    this.#open.delete(first.value[0]);
    abandon(first.value[1].span, why);
  }
}

function abandon(span: OtelSpan, why: string): void {
  span.setAttribute('baton.span.abandoned', true);
  span.setStatus({ code: SPAN_STATUS_ERROR, message: `Ended by @baton/tracing: ${why}` });
  span.end();
}
