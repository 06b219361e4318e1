import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, Runner, tool } from '../src/index.js';
import { recordingTracer } from './helpers.js';


function toolAgent() {
  const echo = tool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
  const model = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
  return new Agent({ name: 'Echoer', model, tools: [echo] });
}

describe('tracing spans', () => {
  it('reports run, turn, model and tool spans to the runner tracer, nested', async () => {
    const { tracer, spans } = recordingTracer();
    await new Runner({ tracer }).run(toolAgent(), 'go');
    const names = spans.map((s) => s.name);
    expect(names.filter((n) => n === 'baton.turn')).toHaveLength(2);
    expect(names.filter((n) => n === 'baton.model')).toHaveLength(2);
    expect(names.at(-1)).toBe('baton.run');
    const toolSpan = spans.find((s) => s.name === 'baton.tool');
    expect(toolSpan).toMatchObject({ attributes: { 'baton.tool.name': 'echo', 'baton.tool.call_id': 'c1' }, exit: 'Success', parent: 'baton.turn' });
    expect(spans.find((s) => s.name === 'baton.turn')?.attributes).toMatchObject({ 'baton.agent': 'Echoer', 'baton.turn': 1 });
  });

  it('lets Effect users provide the tracer to runEffect', async () => {
    const { tracer, spans } = recordingTracer();
    const result = await Effect.runPromise(new Runner().runEffect(toolAgent(), 'go').pipe(Effect.withTracer(tracer)));
    expect(result.finalOutput).toBe('done');
    expect(spans.map((s) => s.name)).toContain('baton.tool');
  });
});
