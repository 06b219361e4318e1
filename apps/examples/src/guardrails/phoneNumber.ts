/**
 * The phone-number output guardrail: the agent's structured answer must not contain a phone
 * number. Uses the ready-made PII check, limited to phone numbers.
 */
import { Agent, OutputGuardrailTripwireTriggered, run } from '@baton/core';
import { piiCheck } from '@baton/guardrails';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { z } from 'zod';
import { consoleLog, type Log } from './log.js';

const MessageOutput = z.object({ reasoning: z.string(), response: z.string(), userName: z.string().nullable() });

export async function phoneNumberExample(log: Log = consoleLog) {
  const model = new ScriptedModel([
    [assistantMessage(JSON.stringify({ reasoning: 'Share the support line.', response: 'Call us at (650) 555-0101.', userName: null }))],
    [assistantMessage(JSON.stringify({ reasoning: 'Point to the help page.', response: 'See our help page for details.', userName: 'Sam' }))],
  ]);
  const agent = new Agent({
    name: 'Assistant',
    instructions: 'You are a helpful assistant.',
    model,
    outputType: MessageOutput,
    outputGuardrails: [piiCheck({ kinds: ['phone'] }).outputGuardrail({ name: 'phone_number_guardrail' })],
  });

  let tripped = false;
  try {
    await run(agent, 'How do I reach support by phone?');
    log("Guardrail didn't trip - this is unexpected");
  } catch (e) {
    if (e instanceof OutputGuardrailTripwireTriggered) {
      tripped = true;
      log('Phone number output guardrail tripped');
      log(`  found: ${JSON.stringify((e.result.output.outputInfo as { counts: object }).counts)}`);
    }
  }
  const clean = await run(agent, 'Where can I read more?');
  log(`Answer without a phone number passed: ${clean.finalOutput?.response}`);
  return { tripped, response: clean.finalOutput?.response };
}
