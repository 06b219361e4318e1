// A paused run resumed while the trace it paused in is still the current one. The tracing README:
// "every run is a trace (or joins the trace around it)" and "a paused run's state keeps its trace ...
// and the resumed run continues it". When the trace around the resumed run IS the state's trace, the
// run joins it as any run joins the trace around it: the trace is started and ended once, by its
// owner (`withTrace`), and the resumed run's spans are in it. Inside ANOTHER trace, the resumed run
// still continues its own (the reference: `withTrace(state._trace, ...)` for a state that has one).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled, withTrace } from '../src/index.js';
import { recordingProcessor } from './recording.js';

let recorder = recordingProcessor();
beforeEach(() => {
  recorder = recordingProcessor();
  setTracingDisabled(false);
  setTraceProcessors([recorder.processor]);
});
afterEach(() => setTraceProcessors([]));

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a paused run resumed inside the trace it paused in', () => {
  it('joins that trace: one start and one end (the owner’s), the resumed run’s spans in it', async () => {
    const refund = tool({ name: 'refund', description: 'Refunds an order.', parameters: z.object({ id: z.string() }), needsApproval: true, execute: ({ id }) => `refunded ${id}` });
    const model = new ScriptedModel([[functionCall('refund', { id: 'A1' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Cashier', model, tools: [refund] });
    let traceId = '';
    await withTrace('Support session', async (trace) => {
      traceId = trace.traceId;
      const paused = await new Runner().run(agent, 'refund A1');
      expect(paused.interruptions).toHaveLength(1);
      paused.state.approve(paused.state.getInterruptions()[0]!);
      const resumed = await new Runner().run(agent, paused.state);
      expect(resumed.finalOutput).toBe('done');
      await settle();
      // Both runs are over; the trace is still open, started once.
      expect(recorder.events.filter((event) => event.startsWith('trace_'))).toEqual(['trace_start:Support session']);
    });
    await settle();
    expect(recorder.events.filter((event) => event.startsWith('trace_'))).toEqual(['trace_start:Support session', 'trace_end:Support session']);
    const functionSpan = recorder.ended.find((span) => span.json.span_data.type === 'function')!;
    expect(functionSpan.json.span_data).toMatchObject({ name: 'refund', output: 'refunded A1' });
    expect(new Set(recorder.ended.map((span) => span.trace))).toEqual(new Set([traceId]));
    // Each run's task span is a root span of the trace (withTrace made no span around them).
    const tasks = recorder.ended.filter((span) => span.json.span_data.type === 'custom' && span.json.span_data.data.sdk_span_type === 'task');
    expect(tasks.map((task) => task.parent)).toEqual([null, null]);
  });

  it('inside another trace: it continues its own trace, not the one around it', async () => {
    const refund = tool({ name: 'refund', description: 'Refunds an order.', parameters: z.object({ id: z.string() }), needsApproval: true, execute: ({ id }) => `refunded ${id}` });
    const model = new ScriptedModel([[functionCall('refund', { id: 'A1' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Cashier', model, tools: [refund] });
    const paused = await new Runner({ workflowName: 'Refunds' }).run(agent, 'refund A1');
    await settle();
    const own = recorder.traces[0]!.id as string;
    paused.state.approve(paused.state.getInterruptions()[0]!);
    let around = '';
    await withTrace('Later session', async (trace) => {
      around = trace.traceId;
      const resumed = await new Runner().run(agent, paused.state);
      expect(resumed.finalOutput).toBe('done');
    });
    await settle();
    expect(around).not.toBe(own);
    const functionSpan = recorder.ended.find((span) => span.json.span_data.type === 'function')!;
    expect(functionSpan.trace).toBe(own);
    expect(recorder.traces.map((trace) => trace.id)).toEqual([own, around, own]);
  });
});

describe('a run inside a trace made while tracing was disabled', () => {
  // The reference: a run in a no-op trace records nothing, and its state keeps no trace
  // (run.js: `isNoopTrace(input._trace)` → `_trace = null`).
  it('records nothing, and its paused state keeps no trace, even if tracing was enabled since', async () => {
    const refund = tool({ name: 'refund', description: 'Refunds an order.', parameters: z.object({ id: z.string() }), needsApproval: true, execute: ({ id }) => `refunded ${id}` });
    const model = new ScriptedModel([[functionCall('refund', { id: 'A1' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Cashier', model, tools: [refund] });
    setTracingDisabled(true);
    let stored: unknown = 'unset';
    await withTrace('Off', async () => {
      setTracingDisabled(false);
      const paused = await new Runner().run(agent, 'refund A1');
      expect(paused.interruptions).toHaveLength(1);
      stored = paused.state._trace;
    });
    await settle();
    expect(stored).toBeNull();
    expect(recorder.ended).toEqual([]);
    expect(recorder.traces).toEqual([]);
  });
});
