import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent, Runner } from '@baton/core';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import {
  ConsoleSpanExporter,
  NoopSpan,
  Trace,
  createCustomSpan,
  generateGroupId,
  generateSpanId,
  generateTraceId,
  getCurrentSpan,
  getCurrentTrace,
  getCurrentTraceContext,
  getGlobalTraceProvider,
  getOrCreateTrace,
  setTraceProcessors,
  setTracingContextStorage,
  setTracingDisabled,
  setTracingIdGenerator,
  withCustomSpan,
  withTrace,
  withTraceContext,
  type TracingContextStorage,
} from '../src/index.js';
import { recordingProcessor, tree } from './recording.js';

afterEach(() => {
  setTraceProcessors([]);
  setTracingContextStorage();
  setTracingIdGenerator();
  setTracingDisabled(false);
  vi.restoreAllMocks();
});

describe('ids', () => {
  it('have the ingest format and do not repeat', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => generateSpanId()));
    expect(ids.size).toBe(2000);
    expect(generateTraceId()).toMatch(/^trace_[0-9a-f]{32}$/);
    expect(generateSpanId()).toMatch(/^span_[0-9a-f]{24}$/);
    expect(generateGroupId()).toMatch(/^group_[0-9a-f]{24}$/);
  });

  it('come from the generator set with setTracingIdGenerator', async () => {
    let n = 0;
    setTracingIdGenerator({ generateTraceId: () => 'trace_fixed', generateSpanId: () => `span_${++n}` });
    const recorder = recordingProcessor();
    setTraceProcessors([recorder.processor]);
    await withTrace('ids', async (trace) => {
      expect(trace.traceId).toBe('trace_fixed');
      createCustomSpan({ data: { name: 'one', data: {} } }).end();
    });
    expect(recorder.ended.map((s) => s.id)).toEqual(['span_1']);
  });
});

describe('the current trace and span', () => {
  it('getOrCreateTrace joins the current trace or makes one', async () => {
    const outer = await withTrace('outer', async (trace) => getOrCreateTrace(async () => getCurrentTrace()?.traceId).then((id) => [trace.traceId, id]));
    expect(outer[0]).toBe(outer[1]);
    const made = await getOrCreateTrace(async () => getCurrentTrace()?.name, { name: 'made here' });
    expect(made).toBe('made here');
    expect(getCurrentTrace()).toBeNull();
  });

  it('with*Span makes its span current inside, records a thrown error and rethrows it', async () => {
    const recorder = recordingProcessor();
    setTraceProcessors([recorder.processor]);
    await withTrace('errors', async () => {
      await expect(
        withCustomSpan(async (span) => {
          expect(getCurrentSpan()).toBe(span);
          throw new Error('broke');
        }, { data: { name: 'failing', data: {} } }),
      ).rejects.toThrow('broke');
      expect(getCurrentSpan()).toBeNull();
    });
    expect(recorder.ended[0]!.json.error).toEqual({ message: 'broke' });
  });

  it('outside any trace a span records nothing, with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const span = createCustomSpan({ data: { name: 'orphan', data: {} } });
    expect(span).toBeInstanceOf(NoopSpan);
    expect(span.toJSON()).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('No active trace'));
  });

  it('with tracing disabled, withTrace runs its function in a trace that records nothing', async () => {
    const recorder = recordingProcessor();
    setTraceProcessors([recorder.processor]);
    setTracingDisabled(true);
    const value = await withTrace('off', async (trace) => (trace.toJSON() === null ? 'noop' : 'real'));
    expect(value).toBe('noop');
    expect(recorder.events).toEqual([]);
  });

  it('where only synchronous storage exists, context is passed explicitly and runs still nest', async () => {
    // A storage that follows synchronous calls only, as outside Node.
    let store: unknown;
    const synchronous: TracingContextStorage = {
      run: (next, callback) => {
        const previous = store;
        store = next;
        try {
          return callback();
        } finally {
          store = previous;
        }
      },
      getStore: () => store,
      enterWith: (next) => void (store = next),
    };
    setTracingContextStorage(synchronous);
    const recorder = recordingProcessor();
    setTraceProcessors([recorder.processor]);
    const agent = new Agent({ name: 'Sync', model: new ScriptedModel([[assistantMessage('ok')]]) });
    await withTrace('explicit', async () => {
      const captured = getCurrentTraceContext();
      await new Promise((resolve) => setTimeout(resolve, 1));
      // After an await the synchronous storage has lost the trace: hand it back explicitly.
      expect(getCurrentTrace()).toBeNull();
      await withTraceContext(captured, () => new Runner().run(agent, 'hi'));
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const traceIds = new Set(recorder.ended.map((s) => s.trace));
    expect(traceIds.size).toBe(1);
    expect(tree(recorder.ended)[0]).toBe('custom task Agent workflow');
  });
});

describe('ConsoleSpanExporter', () => {
  it('prints each trace and span', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const trace = new Trace({ name: 'printed' });
    const span = getGlobalTraceProvider().createSpan({ data: { type: 'custom', name: 'step', data: { n: 1 } } }, trace);
    await new ConsoleSpanExporter().export([trace, span]);
    expect(log.mock.calls[0]![0]).toContain('name=printed');
    expect(log.mock.calls[1]![0]).toContain('"name":"step"');
  });
});
