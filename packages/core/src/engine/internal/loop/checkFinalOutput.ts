import * as Effect from 'effect/Effect';
import type { ModelResponse } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { RunFailure } from '../failures.js';
import { runItemsToInputItems } from '../../../state/internal/items.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { runOutputGuardrails } from './guardrails.js';
import type { LoopEnv } from './loopEnv.js';
import { withholdBlockedOutput } from './withholdBlockedOutput.js';

/**
 * Checks a final output with the output guardrails and records it. The output is recorded first,
 * so a state taken from a failed check (a crashed or tripped guardrail) runs the check again on the
 * same answer, without a new model call, as the reference does. `toolTurnStart` is where the turn's
 * items begin when the output came from its tools: a tripped guardrail withholds them.
 */
export function checkFinalOutput(
  output: unknown,
  agent: Agent<any, any>,
  response: ModelResponse | undefined,
  record: RunRecord,
  env: LoopEnv,
  toolTurnStart?: number,
): Effect.Effect<void, RunFailure> {
  const guardrails = [...env.outputGuardrails, ...agent.outputGuardrails];
  const resultsStart = record.outputGuardrailResults.length;
  record.currentStep = { type: 'next_step_final_output', output, unchecked: true };
  const recordChecked = Effect.sync(() => void (record.currentStep = { type: 'next_step_final_output', output }));
  // No guardrail reads the details: the run's items are not turned into input items for nothing.
  if (guardrails.length === 0) return recordChecked;
  const items = runItemsToInputItems(record.generatedItems, record.reasoningItemIdPolicy) as never;
  const details = response === undefined ? { output: items } : { modelResponse: response, output: items };
  const checked = runOutputGuardrails(
    guardrails,
    {
      agent,
      agentOutput: output,
      context: record.context,
      details,
    },
    record,
    { runner: env.stepRunner, traced: env.traced, turn: record.currentTurn },
  ).pipe(Effect.andThen(recordChecked));
  if (toolTurnStart === undefined) return checked;
  return checked.pipe(
    Effect.catch((failure) => Effect.flatMap(withholdBlockedOutput(failure, resultsStart, toolTurnStart, agent, env.outputGuardrailBlockedMessage, record), Effect.fail)),
  );
}
