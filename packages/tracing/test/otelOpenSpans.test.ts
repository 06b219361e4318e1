import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { Span, type SpanData, type SpanSink } from '../src/index.js';
import { OpenTelemetryTracingProcessor } from '../src/opentelemetry/index.js';

/**
 * The attack: spans that start and never end (a run abandoned mid-way, a processor that misses
 * `onSpanEnd`, a caller that makes spans in a loop and forgets them). The processor must not keep
 * them for ever: it holds a bounded number, for a bounded time, and ends the ones it lets go.
 */

afterEach(() => vi.useRealTimers());

const sink: SpanSink = { onSpanStart: async () => undefined, onSpanEnd: async () => undefined };

function span(i: number): Span<SpanData> {
  return new Span({ traceId: 'trace_x', spanId: `span_${i}`, data: { type: 'custom', name: `leak ${i}`, data: {} }, startedAt: new Date().toISOString() }, sink);
}

function otel() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return { exporter, tracerProvider };
}

describe('OpenTelemetryTracingProcessor with spans that never end', () => {
  it('holds at most maxOpenSpans (default 10000): the oldest are ended as abandoned and exported', async () => {
    const { exporter, tracerProvider } = otel();
    const processor = new OpenTelemetryTracingProcessor({ tracerProvider });
    for (let i = 0; i < 12_000; i++) await processor.onSpanStart(span(i));
    expect(processor.openSpanCount).toBe(10_000);
    const abandoned = exporter.getFinishedSpans();
    expect(abandoned).toHaveLength(2_000);
    expect(abandoned[0]!.attributes['baton.span.abandoned']).toBe(true);
    expect(abandoned[0]!.status).toEqual({ code: 2, message: 'Ended by @baton/tracing: more than 10000 spans were open (maxOpenSpans)' });

    // A span that ends normally after its entry was evicted is ignored; the ones still open end as usual.
    await processor.onSpanEnd(span(0));
    await processor.onSpanEnd(span(11_999));
    expect(processor.openSpanCount).toBe(9_999);
    expect(exporter.getFinishedSpans()).toHaveLength(2_001);
  });

  it('ends spans older than maxSpanAgeMs (default one hour) when the next one starts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { exporter, tracerProvider } = otel();
    const processor = new OpenTelemetryTracingProcessor({ tracerProvider });
    for (let i = 0; i < 5; i++) await processor.onSpanStart(span(i));
    vi.setSystemTime(Date.now() + 30 * 60_000);
    await processor.onSpanStart(span(5));
    expect(processor.openSpanCount).toBe(6);
    vi.setSystemTime(Date.now() + 31 * 60_000);
    await processor.onSpanStart(span(6));
    expect(processor.openSpanCount).toBe(2);
    expect(exporter.getFinishedSpans().map((s) => s.status.message)).toEqual(Array(5).fill('Ended by @baton/tracing: the span did not end within 3600000 ms (maxSpanAgeMs)'));
  });

  it('takes smaller limits, and rejects nonsense ones naming the option', async () => {
    const { tracerProvider } = otel();
    const processor = new OpenTelemetryTracingProcessor({ tracerProvider, maxOpenSpans: 3 });
    for (let i = 0; i < 10; i++) await processor.onSpanStart(span(i));
    expect(processor.openSpanCount).toBe(3);
    expect(() => new OpenTelemetryTracingProcessor({ tracerProvider, maxOpenSpans: 0 })).toThrow(/maxOpenSpans must be a whole number > 0, got 0/);
    expect(() => new OpenTelemetryTracingProcessor({ tracerProvider, maxSpanAgeMs: -1 })).toThrow(/maxSpanAgeMs/);
  });
});
