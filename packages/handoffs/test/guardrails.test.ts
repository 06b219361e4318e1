import { describe, expect, it } from 'vitest';
import { Agent, OutputGuardrailTripwireTriggered, run, type InputGuardrail, type OutputGuardrail } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { handoff } from '../src/index.js';

function guards(log: string[], trip = false) {
  const input = (name: string): InputGuardrail => ({
    name,
    execute: ({ agent }) => {
      log.push(`input:${name}:${agent.name}`);
      return { tripwireTriggered: false };
    },
  });
  const output = (name: string): OutputGuardrail => ({
    name,
    execute: ({ agent, agentOutput }) => {
      log.push(`output:${name}:${agent.name}:${String(agentOutput)}`);
      return { tripwireTriggered: trip };
    },
  });
  return { input, output };
}

function scenario(log: string[], trip = false) {
  const { input, output } = guards(log, trip);
  const billing = new Agent({
    name: 'Billing',
    model: new ScriptedModel([[assistantMessage('billing answer')]]),
    inputGuardrails: [input('billing_in')],
    outputGuardrails: [output('billing_out')],
  });
  const triage = new Agent({
    name: 'Triage',
    model: new ScriptedModel([[assistantMessage('not final'), functionCall('transfer_to_Billing', {})]]),
    handoffs: [handoff(billing)],
    inputGuardrails: [input('triage_in')],
    outputGuardrails: [output('triage_out')],
  });
  return triage;
}

describe('guardrails around a handoff', () => {
  it('input guardrails run for the first agent only; output guardrails of the agent with the final output run', async () => {
    const log: string[] = [];
    const result = await run(scenario(log), 'hi');
    expect(result.finalOutput).toBe('billing answer');
    expect(log).toEqual(['input:triage_in:Triage', 'output:billing_out:Billing:billing answer']);
    expect(result.outputGuardrailResults.map((r) => [r.guardrail.name, r.agent.name])).toEqual([['billing_out', 'Billing']]);
  });

  it('the final agent’s output guardrail can trip after the handoff', async () => {
    const log: string[] = [];
    await expect(run(scenario(log, true), 'hi')).rejects.toBeInstanceOf(OutputGuardrailTripwireTriggered);
  });
});
