// The core README's span contract (read by @baton/tracing into the reference's guardrail span
// data `{ name, triggered }`): every agent guardrail runs in a `baton.guardrail.input` or
// `baton.guardrail.output` span hanging from the agent span, named after the guardrail, with
// `baton.guardrail.triggered` false, or true once it tripped.
import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, Runner } from '../src/index.js';
import { recordingTracer } from './helpers.js';

async function settle(promise: Promise<unknown>): Promise<void> {
  await promise.then(
    () => undefined,
    () => undefined,
  );
}

describe('guardrail spans', () => {
  it('an input and an output guardrail that pass: one span each under the agent span, not triggered', async () => {
    const { tracer, spans } = recordingTracer();
    const agent = new Agent({
      name: 'A',
      model: new ScriptedModel([[assistantMessage('fine')]]),
      inputGuardrails: [{ name: 'in_check', execute: async () => ({ tripwireTriggered: false }) }],
      outputGuardrails: [{ name: 'out_check', execute: async () => ({ tripwireTriggered: false }) }],
    });
    await new Runner({ tracer }).run(agent, 'hi');
    const guardrailSpans = spans.filter((s) => s.name.startsWith('baton.guardrail'));
    expect(guardrailSpans.map((s) => [s.name, s.parent, s.attributes['baton.guardrail.name'], s.attributes['baton.guardrail.triggered']]).sort()).toEqual([
      ['baton.guardrail.input', 'baton.agent', 'in_check', false],
      ['baton.guardrail.output', 'baton.agent', 'out_check', false],
    ]);
  });

  it.each(['input', 'output'] as const)('a tripped %s guardrail says so on its span; its passing sibling does not', async (kind) => {
    const { tracer, spans } = recordingTracer();
    const guardrails = [
      { name: 'passes', execute: async () => ({ tripwireTriggered: false }) },
      { name: 'trips', execute: async () => ({ tripwireTriggered: true }) },
    ];
    const agent = new Agent({
      name: 'A',
      model: new ScriptedModel([[assistantMessage('fine')]]),
      ...(kind === 'input' ? { inputGuardrails: guardrails } : { outputGuardrails: guardrails }),
    });
    await settle(new Runner({ tracer }).run(agent, 'hi'));
    const byName = Object.fromEntries(
      spans.filter((s) => s.name === `baton.guardrail.${kind}`).map((s) => [s.attributes['baton.guardrail.name'], s.attributes['baton.guardrail.triggered']]),
    );
    expect(byName).toEqual({ passes: false, trips: true });
  });
});
