/**
 * The same check with `guardrailFromAgent`, left parallel (the default): the support model starts
 * at once, and when the checker trips, the support model's request is aborted.
 */
import { Agent, InputGuardrailTripwireTriggered, run } from '@baton/core';
import { guardrailFromAgent } from '@baton/guardrails';
import { ScriptedModel, assistantMessage, modelResponder } from '@baton/testing';
import { z } from 'zod';
import { consoleLog, type Log } from './log.js';

/** A support model that takes `ms` to answer, and notices when its request is aborted. */
function slowSupportModel(ms: number) {
  const seen = { aborted: false };
  const model = new ScriptedModel([
    modelResponder(
      (call) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve([assistantMessage('x = 4')]), ms);
          call.request.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            seen.aborted = true;
            resolve([]);
          });
        }),
    ),
  ]);
  return { model, seen };
}

export async function mathHomeworkFromAgentExample(log: Log = consoleLog) {
  const checker = new Agent({
    name: 'Guardrail check',
    instructions: 'Check if the user is asking you to do their math homework.',
    // A small model that answers in about 30 ms.
    model: new ScriptedModel([
      modelResponder(async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return [assistantMessage(JSON.stringify({ isMathHomework: true, reasoning: 'Solve for x.' }))];
      }),
    ]),
    outputType: z.object({ isMathHomework: z.boolean(), reasoning: z.string() }),
  });
  const support = slowSupportModel(300);
  const agent = new Agent({
    name: 'Customer support agent',
    model: support.model,
    inputGuardrails: [guardrailFromAgent(checker, { name: 'Math Homework Guardrail', tripwire: (verdict) => verdict.isMathHomework })],
  });

  const startedAt = Date.now();
  const error = await run(agent, 'Hello, can you help me solve for x: 2x + 3 = 11?').catch((e: unknown) => e);
  const elapsedMs = Date.now() - startedAt;
  const tripped = error instanceof InputGuardrailTripwireTriggered;
  log(tripped ? 'Math homework guardrail tripped (parallel checker agent)' : "Guardrail didn't trip - this is unexpected");
  log(`  support model request aborted: ${support.seen.aborted}; run settled in ${elapsedMs}ms (the model needed 300ms)`);
  return { tripped, aborted: support.seen.aborted, elapsedMs };
}
