import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { getCurrentSpan, setTraceProcessors, setTracingDisabled, withCustomSpan, withTrace } from '../src/index.js';
import { recordingProcessor, tree } from './recording.js';

let recorder: ReturnType<typeof recordingProcessor>;
beforeEach(() => {
  recorder = recordingProcessor();
  setTraceProcessors([recorder.processor]);
  setTracingDisabled(false);
});
afterEach(() => setTraceProcessors([]));

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

function lookupAgent(model: ScriptedModel) {
  const lookup = tool({
    name: 'lookup',
    description: 'Find an order.',
    parameters: z.object({ id: z.string() }),
    execute: async ({ id }) => {
      // A tool sees its own span as current, and can make spans under it.
      const current = getCurrentSpan();
      await withCustomSpan(async () => undefined, { data: { name: 'db_query', data: { id } } });
      return `found ${id} in ${current?.spanData.type}`;
    },
  });
  return new Agent({ name: 'Triage', model, tools: [lookup] });
}

describe('span trees of runs', () => {
  it('a plain run: trace → task → agent → turns → model and function spans', async () => {
    const model = new ScriptedModel([[functionCall('lookup', { id: 'A1' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const result = await new Runner().run(lookupAgent(model), 'hi');
    await settle();
    expect(result.finalOutput).toBe('done');
    expect(tree(recorder.ended)).toEqual([
      'custom task Agent workflow',
      '  agent Triage',
      '    custom turn Triage',
      '      generation',
      '      function lookup',
      '        custom db_query',
      '    custom turn Triage',
      '      generation',
    ]);
    expect(recorder.events[0]).toBe('trace_start:Agent workflow');
    expect(recorder.events.at(-1)).toBe('trace_end:Agent workflow');
    const fn = recorder.ended.find((s) => s.json.span_data.type === 'function')!;
    expect(fn.json.span_data).toEqual({ type: 'function', name: 'lookup', input: '{"id":"A1"}', output: 'found A1 in function' });
    const agent = recorder.ended.find((s) => s.json.span_data.type === 'agent')!;
    expect(agent.json.span_data).toEqual({ type: 'agent', name: 'Triage', tools: ['lookup'], handoffs: [], output_type: 'text' });
  });

  it('runs inside withTrace join it, and concurrent runs keep their spans apart', async () => {
    const make = () => lookupAgent(new ScriptedModel([[functionCall('lookup', { id: 'A1' }, { callId: 'c1' })], [assistantMessage('done')]]));
    const traceIds = await Promise.all(
      ['one', 'two', 'three'].map((name) =>
        withTrace(name, async (trace) => {
          await new Runner().run(make(), 'hi');
          await new Runner().run(make(), 'again');
          return trace.traceId;
        }),
      ),
    );
    await settle();
    for (const traceId of traceIds) {
      const spans = recorder.ended.filter((s) => s.trace === traceId);
      expect(spans.filter((s) => s.json.span_data.type === 'agent')).toHaveLength(2);
      expect(spans.filter((s) => s.json.span_data.type === 'function')).toHaveLength(2);
      // every parent is in the same trace
      const ids = new Set(spans.map((s) => s.id));
      for (const span of spans) if (span.parent !== null) expect(ids.has(span.parent)).toBe(true);
    }
    expect(new Set(traceIds).size).toBe(3);
  });

  it('records nothing when tracing is disabled, globally or per run', async () => {
    const model = () => new ScriptedModel([[assistantMessage('done')]]);
    await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'A', model: model() }), 'hi');
    setTracingDisabled(true);
    await new Runner().run(new Agent({ name: 'A', model: model() }), 'hi');
    await settle();
    expect(recorder.events).toEqual([]);
  });
});
