// The README's run options and the trace of a paused run:
//   "Run options (or `Runner` config): `tracingDisabled`, `traceIncludeSensitiveData`, `workflowName`,
//   `traceId`, `groupId`, `traceMetadata`, `tracing: { apiKey, includeTaskAndTurnSpans }`. A paused
//   run's state keeps its trace (without the API key unless `toString({ includeTracingApiKey: true })`),
//   and the resumed run continues it."
// and the usage the reference's task and turn spans carry (agents-core `runner/tracing.js`:
// `finishRunnerSpan` writes the summed usage of the model calls below, task spans with `requests` and
// `total_tokens` too, and nothing when every count is 0).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, RunState, Runner, tool } from '@baton/core';
import { Usage } from '@baton/types';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled, withTrace, type Span, type Trace, type TracingProcessor } from '../src/index.js';
import { tree, type RecordedSpan } from './recording.js';

/** Every trace and span a processor is handed, with the span data and trace as they are at the end. */
function recorder() {
  const events: string[] = [];
  const traces: Trace[] = [];
  const ended: RecordedSpan[] = [];
  const data: Record<string, any>[] = [];
  const processor: TracingProcessor = {
    async onTraceStart(trace) {
      events.push(`trace_start ${trace.traceId}`);
      traces.push(trace);
    },
    async onTraceEnd(trace) {
      events.push(`trace_end ${trace.traceId}`);
    },
    async onSpanStart() {},
    async onSpanEnd(span: Span<any>) {
      ended.push({ id: span.spanId, parent: span.parentId, trace: span.traceId, json: span.toJSON() as Record<string, any> });
      data.push(span.spanData as Record<string, any>);
    },
    async shutdown() {},
    async forceFlush() {},
  };
  return { processor, events, traces, ended, data };
}

let rec: ReturnType<typeof recorder>;
beforeEach(() => {
  rec = recorder();
  setTracingDisabled(false);
  setTraceProcessors([rec.processor]);
});
afterEach(() => setTraceProcessors([]));

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const TRACE_ID = 'trace_0123456789abcdef0123456789abcdef';

describe('run options reach the trace', () => {
  it('workflowName, traceId, groupId, traceMetadata and tracing.apiKey', async () => {
    const runner = new Runner({ workflowName: 'Support', traceId: TRACE_ID, groupId: 'group_1', traceMetadata: { tier: 'gold' }, tracing: { apiKey: 'sk-trace-1' } });
    await runner.run(new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('hi')]]) }), 'hello');
    await settle();
    expect(rec.traces).toHaveLength(1);
    const trace = rec.traces[0]!;
    expect(trace.toJSON()).toEqual({ object: 'trace', id: TRACE_ID, workflow_name: 'Support', group_id: 'group_1', metadata: { tier: 'gold' } });
    expect(trace.tracingApiKey).toBe('sk-trace-1');
    expect(rec.events).toEqual([`trace_start ${TRACE_ID}`, `trace_end ${TRACE_ID}`]);
    expect(rec.data.find((d) => d.type === 'task')).toMatchObject({ name: 'Support' });
    expect(rec.ended.every((span) => span.trace === TRACE_ID)).toBe(true);
  });

  it('without them: the reference’s "Agent workflow", a new trace id, no group, empty metadata, no key', async () => {
    await new Runner().run(new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('hi')]]) }), 'hello');
    await settle();
    const trace = rec.traces[0]!;
    // The reference's Trace: `metadata = options.metadata ?? {}`.
    expect(trace.toJSON()).toEqual({ object: 'trace', id: trace.traceId, workflow_name: 'Agent workflow', group_id: null, metadata: {} });
    expect(trace.traceId).toMatch(/^trace_[0-9a-f]{32}$/);
    expect(trace.tracingApiKey).toBeUndefined();
  });

  it('tracing.includeTaskAndTurnSpans: false leaves the task and turn spans out', async () => {
    const runner = new Runner({ tracing: { includeTaskAndTurnSpans: false } });
    await runner.run(new Agent({ name: 'Solo', model: new ScriptedModel([[assistantMessage('hi')]]) }), 'hello');
    await settle();
    expect(tree(rec.ended)).toEqual(['agent Solo', '  generation']);
  });
});

describe('a run inside a trace it did not make', () => {
  it('joins it and leaves ending it to its owner: one start, one end, after both runs', async () => {
    const agent = () => new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('hi')]]) });
    let inside = '';
    await withTrace('Session', async (trace) => {
      inside = trace.traceId;
      await new Runner().run(agent(), 'one');
      await settle();
      // The first run is over, and the trace is still open.
      expect(rec.events).toEqual([`trace_start ${inside}`]);
      await new Runner().run(agent(), 'two');
    });
    await settle();
    expect(rec.events).toEqual([`trace_start ${inside}`, `trace_end ${inside}`]);
    expect(rec.data.filter((d) => d.type === 'agent')).toHaveLength(2);
  });
});

describe('a paused run keeps its trace', () => {
  const refund = () =>
    tool({
      name: 'refund',
      description: 'Refunds an order.',
      parameters: z.object({ id: z.string() }),
      needsApproval: true,
      execute: ({ id }) => `refunded ${id}`,
    });
  const scripted = () => new ScriptedModel([[functionCall('refund', { id: 'A1' }, { callId: 'c1' })], [assistantMessage('done')]]);

  it('the state holds the trace, its key only when asked; the resumed run continues it with its group, metadata and key', async () => {
    const model = scripted();
    const agent = new Agent({ name: 'Cashier', model, tools: [refund()] });
    const runner = new Runner({ workflowName: 'Refunds', groupId: 'group_7', traceMetadata: { shop: 'north' }, tracing: { apiKey: 'sk-trace-2' } });
    const paused = await runner.run(agent, 'refund A1');
    expect(paused.interruptions).toHaveLength(1);
    await settle();
    const original = rec.traces[0]!;

    const stored = JSON.parse(paused.state.toString()).trace;
    expect(stored).toEqual({ object: 'trace', id: original.traceId, workflow_name: 'Refunds', group_id: 'group_7', metadata: { shop: 'north' } });
    const withKey = paused.state.toString({ includeTracingApiKey: true });
    expect(JSON.parse(withKey).trace.tracing_api_key).toBe('sk-trace-2');

    const state = await RunState.fromString(agent, withKey);
    state.approve(state.getInterruptions()[0]!);
    const resumed = await new Runner().run(agent, state);
    expect(resumed.finalOutput).toBe('done');
    await settle();

    // The resumed run starts the same trace again (the reference's behaviour) and ends it.
    expect(rec.traces).toHaveLength(2);
    const again = rec.traces[1]!;
    expect(again.toJSON()).toEqual({ object: 'trace', id: original.traceId, workflow_name: 'Refunds', group_id: 'group_7', metadata: { shop: 'north' } });
    expect(again.tracingApiKey).toBe('sk-trace-2');
    expect(rec.events.filter((e) => e === `trace_end ${original.traceId}`)).toHaveLength(2);
    const functionSpans = rec.ended.filter((span) => span.json.span_data.type === 'function');
    expect(functionSpans.map((span) => span.trace)).toEqual([original.traceId]);
  });

  it('without the key in the state, a resumed run has none; a state with no group or metadata resumes without them (empty metadata, as the reference)', async () => {
    const model = scripted();
    const agent = new Agent({ name: 'Cashier', model, tools: [refund()] });
    const paused = await new Runner({ tracing: { apiKey: 'sk-trace-3' } }).run(agent, 'refund A1');
    const state = await RunState.fromString(agent, paused.state.toString());
    state.approve(state.getInterruptions()[0]!);
    await new Runner().run(agent, state);
    await settle();
    const again = rec.traces[1]!;
    expect(again.traceId).toBe(rec.traces[0]!.traceId);
    expect(again.tracingApiKey).toBeUndefined();
    expect(again.groupId).toBeNull();
    expect(again.metadata).toEqual({});
  });
});

describe('usage on task and turn spans (the reference’s finishRunnerSpan)', () => {
  it('each turn carries its model call’s tokens; the task the sum, with requests and total tokens', async () => {
    const usage = (inputTokens: number, outputTokens: number, cached: number, cacheWrite: number) =>
      new Usage({ requests: 1, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, inputTokensDetails: [{ cached_tokens: cached, cache_write_tokens: cacheWrite }] });
    const lookup = tool({ name: 'lookup', description: '', parameters: z.object({}), execute: () => 'found' });
    const model = new ScriptedModel([
      { output: [functionCall('lookup', {}, { callId: 'c1' })], usage: usage(10, 5, 4, 1) },
      { output: [assistantMessage('done')], usage: usage(20, 7, 0, 2) },
    ] as never);
    await new Runner().run(new Agent({ name: 'A', model, tools: [lookup] }), 'go');
    await settle();
    const turns = rec.data.filter((d) => d.type === 'turn');
    expect(turns.map((t) => t.usage)).toEqual([
      { input_tokens: 10, output_tokens: 5, cached_input_tokens: 4, cache_write_input_tokens: 1 },
      { input_tokens: 20, output_tokens: 7, cached_input_tokens: 0, cache_write_input_tokens: 2 },
    ]);
    const task = rec.data.find((d) => d.type === 'task')!;
    expect(task.usage).toEqual({ input_tokens: 30, output_tokens: 12, cached_input_tokens: 4, cache_write_input_tokens: 3, requests: 2, total_tokens: 42 });
    // The model spans themselves carry their own call's counts.
    expect(rec.data.filter((d) => d.type === 'generation').map((g) => g.usage)).toEqual([
      { input_tokens: 10, output_tokens: 5 },
      { input_tokens: 20, output_tokens: 7 },
    ]);
  });

  it('no usage at all leaves the usage field off (the reference writes it only when a count is not 0)', async () => {
    const model = new ScriptedModel([{ output: [assistantMessage('done')], usage: new Usage({ requests: 0 }) }] as never);
    await new Runner().run(new Agent({ name: 'A', model }), 'go');
    await settle();
    expect(rec.data.find((d) => d.type === 'task')!.usage).toBeUndefined();
    expect(rec.data.find((d) => d.type === 'turn')!.usage).toBeUndefined();
  });
});
