// The README's table of what each span carries ("What is traced"), read from the span data a
// processor is handed: guardrail (name, whether it tripped), handoff (from and to agent), response
// (the response id only with sensitive data), generation (model, settings, usage; items only with
// sensitive data), and a function call a human rejected (its arguments stay out, and the span says
// it was rejected, in the reference's words: agents-core runner/toolExecution.js).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, RunState, Runner, defaultHandoffToolName, tool, type Model } from '@baton/core';
import { Usage } from '@baton/types';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled, type Span, type TracingProcessor } from '../src/index.js';

const ended: Array<{ data: Record<string, any>; json: Record<string, any> }> = [];
const processor: TracingProcessor = {
  async onTraceStart() {},
  async onTraceEnd() {},
  async onSpanStart() {},
  async onSpanEnd(span: Span<any>) {
    ended.push({ data: span.spanData as Record<string, any>, json: span.toJSON() as Record<string, any> });
  },
  async shutdown() {},
  async forceFlush() {},
};
beforeEach(() => {
  ended.length = 0;
  setTracingDisabled(false);
  setTraceProcessors([processor]);
});
afterEach(() => setTraceProcessors([]));

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const spans = (type: string) => ended.filter((s) => s.data.type === type);

/** A scripted model that names itself and says which span it wants, as providers do. */
function named(steps: ConstructorParameters<typeof ScriptedModel>[0], traceSpanType: 'response' | 'generation'): Model {
  const inner = new ScriptedModel(steps);
  return { modelName: 'gpt-test', traceSpanType, getResponse: (r) => inner.getResponse(r), getStreamedResponse: (r) => inner.getStreamedResponse(r) };
}

describe('guardrail spans', () => {
  it('say whether the guardrail tripped', async () => {
    const check = (tripwireTriggered: boolean) => ({ name: tripwireTriggered ? 'blocks' : 'passes', execute: async () => ({ outputInfo: null, tripwireTriggered }) });
    const model = () => new ScriptedModel([[assistantMessage('ok')]]);
    await new Runner().run(new Agent({ name: 'A', model: model(), inputGuardrails: [check(false)] }), 'hi');
    await new Runner().run(new Agent({ name: 'A', model: model(), inputGuardrails: [check(true)] }), 'hi').catch(() => undefined);
    await settle();
    expect(spans('guardrail').map((s) => s.json.span_data)).toEqual([
      { type: 'guardrail', name: 'passes', triggered: false },
      { type: 'guardrail', name: 'blocks', triggered: true },
    ]);
  });
});

describe('handoff spans', () => {
  it('name the agent handing off and the one taking over', async () => {
    const billing = new Agent({ name: 'Billing', model: new ScriptedModel([[assistantMessage('paid')]]) });
    const triage = new Agent({ name: 'Triage', model: new ScriptedModel([[functionCall(defaultHandoffToolName(billing), {}, { callId: 'h1' })]]), handoffs: [billing] });
    const result = await new Runner().run(triage, 'I was charged twice');
    expect(result.finalOutput).toBe('paid');
    await settle();
    expect(spans('handoff').map((s) => s.json.span_data)).toEqual([{ type: 'handoff', from_agent: 'Triage', to_agent: 'Billing' }]);
  });
});

describe('response spans (Responses-style models)', () => {
  const usage = new Usage({ requests: 1, inputTokens: 12, outputTokens: 3 });
  const step = () => [{ output: [assistantMessage('hello')], usage, responseId: 'resp_123' }] as never;

  it('with sensitive data: the response id is exported; the model, usage, input and response are kept in process', async () => {
    await new Runner().run(new Agent({ name: 'A', model: named(step(), 'response') }), 'hi there');
    await settle();
    const [response] = spans('response');
    expect(response!.json.span_data).toEqual({ type: 'response', response_id: 'resp_123' });
    expect(response!.data._model).toBe('gpt-test');
    expect(response!.data._usage).toEqual({ input_tokens: 12, output_tokens: 3 });
    expect(JSON.stringify(response!.data._input)).toContain('hi there');
    expect(JSON.stringify(response!.data._response)).toContain('hello');
  });

  it('without: no response id, input or response; the model and usage stay (they are not sensitive)', async () => {
    await new Runner({ traceIncludeSensitiveData: false }).run(new Agent({ name: 'A', model: named(step(), 'response') }), 'hi there');
    await settle();
    const [response] = spans('response');
    expect(response!.json.span_data).toEqual({ type: 'response' });
    expect(response!.data._input).toBeUndefined();
    expect(response!.data._response).toBeUndefined();
    expect(response!.data._model).toBe('gpt-test');
    expect(response!.data._usage).toEqual({ input_tokens: 12, output_tokens: 3 });
  });
});

describe('generation spans', () => {
  it('carry the model, its settings and usage in both settings; the items only with sensitive data', async () => {
    const step = () => [{ output: [assistantMessage('hello')], usage: new Usage({ requests: 1, inputTokens: 9, outputTokens: 4 }) }] as never;
    for (const traceIncludeSensitiveData of [true, false]) {
      ended.length = 0;
      const agent = new Agent({ name: 'A', model: named(step(), 'generation'), modelSettings: { temperature: 0.25 } });
      await new Runner({ traceIncludeSensitiveData }).run(agent, 'hi there');
      await settle();
      const [generation] = spans('generation');
      expect(generation!.data.model).toBe('gpt-test');
      expect(generation!.data.model_config).toMatchObject({ temperature: 0.25 });
      expect(generation!.data.usage).toEqual({ input_tokens: 9, output_tokens: 4 });
      if (traceIncludeSensitiveData) {
        expect(generation!.data.input).toMatchObject([{ role: 'user', content: 'hi there' }]);
        expect(JSON.stringify(generation!.data.output)).toContain('hello');
      } else {
        expect(generation!.data.input).toBeUndefined();
        expect(generation!.data.output).toBeUndefined();
      }
    }
  });
});

describe('a function call a human rejected', () => {
  it('keeps its arguments out and says it was rejected (the reference’s error data), with sensitive data on', async () => {
    const refund = tool({ name: 'refund', description: '', parameters: z.object({ card: z.string() }), needsApproval: true, execute: () => 'refunded' });
    const model = new ScriptedModel([[functionCall('refund', { card: 'card-4242' }, { callId: 'c9' })], [assistantMessage('not refunded')]]);
    const agent = new Agent({ name: 'Cashier', model, tools: [refund] });
    const paused = await new Runner().run(agent, 'refund');
    const state = await RunState.fromString(agent, paused.state.toString());
    state.reject(state.getInterruptions()[0]!);
    const resumed = await new Runner().run(agent, state);
    expect(resumed.finalOutput).toBe('not refunded');
    await settle();
    const fn = spans('function');
    expect(fn).toHaveLength(1);
    expect(fn[0]!.json.span_data.input).toBe('');
    expect(JSON.stringify(fn[0]!.json)).not.toContain('card-4242');
    expect(fn[0]!.json.error.data).toEqual({ tool_name: 'refund', error: 'Tool execution for c9 was manually rejected by user.' });
  });
});
