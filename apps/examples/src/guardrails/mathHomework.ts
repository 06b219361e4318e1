/**
 * The seeds' math-homework input guardrail, as written there: a blocking guardrail that runs a
 * checker agent with a structured output before the expensive agent is called.
 */
import { Agent, InputGuardrailTripwireTriggered, run, type InputGuardrail } from '@baton/core';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { z } from 'zod';
import { consoleLog, type Log } from './log.js';

export async function mathHomeworkExample(log: Log = consoleLog) {
  // Offline stand-ins for a small checker model and the support model.
  const checkerModel = new ScriptedModel([
    [assistantMessage(JSON.stringify({ isMathHomework: true, reasoning: 'The user asks to solve an equation.' }))],
    [assistantMessage(JSON.stringify({ isMathHomework: false, reasoning: 'A question about an order.' }))],
  ]);
  const supportModel = new ScriptedModel([[assistantMessage('Your order ships tomorrow.')]]);

  const guardrailAgent = new Agent({
    name: 'Guardrail check',
    instructions: 'Check if the user is asking you to do their math homework.',
    model: checkerModel,
    outputType: z.object({ isMathHomework: z.boolean(), reasoning: z.string() }),
  });

  const mathGuardrail: InputGuardrail = {
    name: 'Math Homework Guardrail',
    // Set runInParallel to false to block the model until the guardrail completes.
    runInParallel: false,
    execute: async ({ input, context }) => {
      const result = await run(guardrailAgent, input, { context });
      return {
        outputInfo: result.finalOutput,
        // (The seed compares with `=== false`, which would trip on everything but homework.)
        tripwireTriggered: result.finalOutput?.isMathHomework === true,
      };
    },
  };

  const agent = new Agent({
    name: 'Customer support agent',
    instructions: 'You are a customer support agent. You help customers with their questions.',
    model: supportModel,
    inputGuardrails: [mathGuardrail],
  });

  let tripped = false;
  try {
    await run(agent, 'Hello, can you help me solve for x: 2x + 3 = 11?');
    log("Guardrail didn't trip - this is unexpected");
  } catch (e) {
    if (e instanceof InputGuardrailTripwireTriggered) {
      tripped = true;
      log('Math homework guardrail tripped');
      log(`  ${e.message}`);
    }
  }
  log(`  support model calls so far: ${supportModel.calls.length}`);

  const answer = await run(agent, 'Where is my order #1234?');
  log(`Order question passed the guardrail: ${answer.finalOutput}`);
  return { tripped, supportModelCalls: supportModel.calls.length, answer: answer.finalOutput };
}
