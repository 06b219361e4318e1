import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent, Runner } from '@baton/core';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import {
  BatchTraceProcessor,
  MultiTracingProcessor,
  Trace,
  setTraceProcessors,
  setTracingDisabled,
  type Span,
  type TracingExporter,
  type TracingProcessor,
} from '../src/index.js';
import { recordingProcessor } from './recording.js';

afterEach(() => {
  setTraceProcessors([]);
  vi.restoreAllMocks();
});

const agent = () => new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('ok')]]) });

function broken(kind: 'throws' | 'rejects'): TracingProcessor {
  const fail = () => {
    if (kind === 'throws') throw new Error('processor exploded');
    return Promise.reject(new Error('processor rejected'));
  };
  return { onTraceStart: fail, onTraceEnd: fail, onSpanStart: fail, onSpanEnd: fail, shutdown: fail, forceFlush: fail } as unknown as TracingProcessor;
}

describe('processors that fail', () => {
  it.each(['throws', 'rejects'] as const)('a processor that %s neither fails the run nor stops the others, and is reported once', async (kind) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const recorder = recordingProcessor();
    setTracingDisabled(false);
    setTraceProcessors([broken(kind), recorder.processor]);
    const results = await Promise.all([new Runner().run(agent(), 'one'), new Runner().run(agent(), 'two')]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(results.map((r) => r.finalOutput)).toEqual(['ok', 'ok']);
    expect(recorder.ended.filter((s) => s.json.span_data.type === 'agent')).toHaveLength(2);
    expect(warn.mock.calls.filter(([message]) => String(message).includes('processor'))).toHaveLength(1);
  });

  it('MultiTracingProcessor.shutdown and forceFlush settle even when a processor fails', async () => {
    const multi = new MultiTracingProcessor();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    multi.setProcessors([broken('throws'), broken('rejects')]);
    await expect(multi.shutdown()).resolves.toBeUndefined();
    await expect(multi.forceFlush()).resolves.toBeUndefined();
  });
});

describe('BatchTraceProcessor', () => {
  const spanLike = (n: number) => ({ type: 'trace.span', spanId: `span_${n}`, toJSON: () => ({ n }) }) as unknown as Span<any>;

  it('exports in batches of maxBatchSize on forceFlush', async () => {
    const batches: number[] = [];
    const exporter: TracingExporter = { export: async (items) => void batches.push(items.length) };
    const processor = new BatchTraceProcessor(exporter, { maxBatchSize: 2, scheduleDelay: 60_000 });
    for (let i = 0; i < 5; i++) await processor.onSpanEnd(spanLike(i));
    await processor.forceFlush();
    expect(batches).toEqual([2, 2, 1]);
  });

  it('exports on its own once the queue reaches the trigger ratio', async () => {
    const exported: number[] = [];
    const processor = new BatchTraceProcessor({ export: async (items) => void exported.push(items.length) }, { maxQueueSize: 10, exportTriggerRatio: 0.5, scheduleDelay: 60_000 });
    for (let i = 0; i < 5; i++) await processor.onSpanEnd(spanLike(i));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(exported.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('holds at most maxQueueSize items, drops the rest with one warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const exported: number[] = [];
    // The first export hangs until released, so the queue fills up behind it.
    const processor = new BatchTraceProcessor(
      { export: async (items) => { exported.push(items.length); await gate; } },
      { maxQueueSize: 4, maxBatchSize: 4, exportTriggerRatio: 1, scheduleDelay: 60_000 },
    );
    for (let i = 0; i < 4; i++) await processor.onSpanEnd(spanLike(i)); // triggers the hanging export
    for (let i = 0; i < 10; i++) await processor.onSpanEnd(spanLike(100 + i)); // 4 queued, 6 dropped
    release();
    await processor.forceFlush();
    expect(exported).toEqual([4, 4]);
    expect(warn.mock.calls.filter(([message]) => String(message).includes('queue full'))).toHaveLength(1);
  });

  it('shutdown returns within its timeout when the exporter hangs, and the run was never held up', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const hanging: TracingExporter = { export: () => new Promise(() => {}) };
    const processor = new BatchTraceProcessor(hanging, { scheduleDelay: 60_000, exportTimeout: 60_000 });
    setTracingDisabled(false);
    setTraceProcessors([processor]);
    const result = await new Runner().run(agent(), 'hi');
    expect(result.finalOutput).toBe('ok');
    const started = Date.now();
    await processor.shutdown(50);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('aborts an export that exceeds exportTimeout, reports it once, and goes on with the next batch', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const signals: AbortSignal[] = [];
    let calls = 0;
    const exporter: TracingExporter = {
      export: (_items, signal) => {
        calls += 1;
        signals.push(signal!);
        return calls === 1 ? new Promise(() => {}) : Promise.resolve();
      },
    };
    const processor = new BatchTraceProcessor(exporter, { maxBatchSize: 1, scheduleDelay: 60_000, exportTimeout: 20 });
    await processor.onSpanEnd(spanLike(1));
    await processor.onSpanEnd(spanLike(2));
    await processor.forceFlush();
    expect(calls).toBe(2);
    expect(signals[0]!.aborted).toBe(true);
    expect(warn.mock.calls.filter(([message]) => String(message).includes('exporter failed'))).toHaveLength(1);
  });

  it('rejects bad options with a message naming the option', () => {
    const exporter: TracingExporter = { export: async () => {} };
    expect(() => new BatchTraceProcessor(exporter, { maxQueueSize: 0 })).toThrow(/maxQueueSize must be a positive number, got 0/);
    expect(() => new BatchTraceProcessor(exporter, { exportTriggerRatio: 2 })).toThrow(/exportTriggerRatio must be in \(0, 1\], got 2/);
  });

  it('queues traces as they start', async () => {
    const items: string[] = [];
    const processor = new BatchTraceProcessor({ export: async (batch) => void items.push(...batch.map((i) => i.type)) }, { scheduleDelay: 60_000 });
    await processor.onTraceStart(new Trace({ name: 't' }, processor));
    await processor.forceFlush();
    expect(items).toEqual(['trace']);
  });
});
