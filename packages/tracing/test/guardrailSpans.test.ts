// The span of a guardrail that throws. The reference runs each guardrail in `withGuardrailSpan`
// (agents-core `runner/guardrails.js`), whose failure records the thrown error as the span's error:
// its message, and its `data` when it has some (`tracing/createSpans.js`, setSpanError). With
// sensitive data on (the default) Baton records the same; without it, the tracing README's rule —
// no failure's text reaches a span — gives a generic message (a deliberate difference, see the README).
// Output guardrails run in guardrail spans too (`runOutputGuardrails` goes through the same
// `withGuardrailSpan`, under the agent span), `triggered` saying whether the tripwire fired.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Runner } from '@baton/core';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled } from '../src/index.js';
import { recordingProcessor } from './recording.js';

let recorder = recordingProcessor();
beforeEach(() => {
  recorder = recordingProcessor();
  setTracingDisabled(false);
  setTraceProcessors([recorder.processor]);
});
afterEach(() => setTraceProcessors([]));

async function guardrailSpan(error: unknown, traceIncludeSensitiveData: boolean) {
  const throwing = { name: 'vault_check', execute: async () => Promise.reject(error) };
  const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('ok')]]), inputGuardrails: [throwing] });
  const outcome = await new Runner({ traceIncludeSensitiveData }).run(agent, 'hi').then(() => 'finished', () => 'failed');
  expect(outcome).toBe('failed');
  await new Promise((resolve) => setTimeout(resolve, 20));
  return recorder.ended.find((span) => span.json.span_data.type === 'guardrail')!.json;
}

describe('a guardrail that throws', () => {
  it('with sensitive data: the thrown error’s own message (not the run’s GuardrailExecutionError)', async () => {
    const span = await guardrailSpan(new Error('vault said no'), true);
    expect(span.span_data).toEqual({ type: 'guardrail', name: 'vault_check', triggered: false });
    expect(span.error).toEqual({ message: 'vault said no' });
  });

  it('with sensitive data: the error’s data object too, when it has one', async () => {
    const error = Object.assign(new Error('vault said no'), { data: { vault: 'north', attempt: 2 } });
    const span = await guardrailSpan(error, true);
    expect(span.error).toEqual({ message: 'vault said no', data: { vault: 'north', attempt: 2 } });
  });

  it('without sensitive data: a generic message naming the guardrail, none of the error’s text', async () => {
    const span = await guardrailSpan(new Error('vault said no'), false);
    expect(span.error).toEqual({ message: 'Error running guardrail', data: { guardrail: 'vault_check', error: 'Error' } });
  });
});

describe('an output guardrail', () => {
  async function outputGuardrailSpans(tripwireTriggered: boolean) {
    const guardrail = { name: 'no_refunds', execute: async () => ({ tripwireTriggered, outputInfo: null }) };
    const agent = new Agent({ name: 'Clerk', model: new ScriptedModel([[assistantMessage('refund granted')]]), outputGuardrails: [guardrail] });
    const outcome = await new Runner().run(agent, 'refund?').then(() => 'finished', () => 'failed');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const guardrailSpan = recorder.ended.find((span) => span.json.span_data.type === 'guardrail')!;
    const agentSpan = recorder.ended.find((span) => span.json.span_data.type === 'agent')!;
    return { outcome, guardrailSpan, agentSpan };
  }

  it('that trips: a guardrail span under the agent span, triggered', async () => {
    const { outcome, guardrailSpan, agentSpan } = await outputGuardrailSpans(true);
    expect(outcome).toBe('failed');
    expect(guardrailSpan.json.span_data).toEqual({ type: 'guardrail', name: 'no_refunds', triggered: true });
    expect(guardrailSpan.parent).toBe(agentSpan.id);
  });

  it('that passes: a guardrail span, not triggered', async () => {
    const { outcome, guardrailSpan } = await outputGuardrailSpans(false);
    expect(outcome).toBe('finished');
    expect(guardrailSpan.json.span_data).toEqual({ type: 'guardrail', name: 'no_refunds', triggered: false });
    expect(guardrailSpan.json.error).toBeNull();
  });
});
