import { Agent, OutputGuardrailTripwireTriggered, run } from '@baton/core';
import { defineOutputGuardrail } from '@baton/guardrails';
import { ScriptedModel, assistantMessage } from '@baton/testing';

// An output guardrail sees the parsed final output before the run returns it.
const noPromises = defineOutputGuardrail<'text'>({
  name: 'no_refund_promises',
  execute: ({ agentOutput }) => ({ tripwireTriggered: /guarantee.*refund/i.test(agentOutput), outputInfo: 'promised a refund' }),
});

const agent = new Agent({
  name: 'Support',
  model: new ScriptedModel([[assistantMessage('I guarantee you a full refund.')]]),
  outputGuardrails: [noPromises],
});

const error = await run(agent, 'Can I get my money back?').catch((e: unknown) => e);
console.log(error instanceof OutputGuardrailTripwireTriggered); // true
