import { Agent, InputGuardrailTripwireTriggered, run } from '@baton/core';
import { defineInputGuardrail } from '@baton/guardrails';
import { ScriptedModel, assistantMessage } from '@baton/testing';

// Blocking (`runInParallel: false`): checked before the model is called.
const noHomework = defineInputGuardrail({
  name: 'no_homework',
  runInParallel: false,
  execute: ({ input }) => ({ tripwireTriggered: /solve for x/i.test(String(input)), outputInfo: { reason: 'math homework' } }),
});

// Parallel (the default): runs beside the first model call; when it trips, the model request is aborted.
const noSecrets = defineInputGuardrail({
  name: 'no_secrets',
  execute: async ({ input }) => ({ tripwireTriggered: String(input).includes('sk-'), outputInfo: 'an API key' }),
});

const model = new ScriptedModel([[assistantMessage('never used')]]);
const support = new Agent({ name: 'Support', model, inputGuardrails: [noHomework, noSecrets] });

const error = await run(support, 'Solve for x: 2x + 3 = 11').catch((e: unknown) => e);
if (error instanceof InputGuardrailTripwireTriggered) {
  console.log(error.message); // Input guardrail triggered: {"reason":"math homework"}
}
console.log(model.calls.length); // 0: the blocking guardrail tripped before the model was called
