import * as Effect from 'effect/Effect';
import { OutputGuardrailTripwireTriggered, RunToolCallOutputItem, type FunctionCallResultItem } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { OUTPUT_GUARDRAIL_BLOCKED_TOOL_OUTPUT, type OutputGuardrailBlockedMessage } from '../../../definitions/outputGuardrailBlockedMessage.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { redactTerminalTrip } from './redactTerminalTrip.js';

/**
 * An output guardrail tripped on a final output that was a tool's output: the output is replaced,
 * wherever the run kept it (the tool output item, the guardrail results, the error), by a
 * data-free placeholder, so a state or session written afterwards holds no trace of it.
 */
export function withholdBlockedOutput(
  error: OutputGuardrailTripwireTriggered,
  terminal: RunToolCallOutputItem,
  agent: Agent<any, any>,
  configured: OutputGuardrailBlockedMessage<any> | undefined,
  record: RunRecord,
): Effect.Effect<void> {
  return placeholderFor(configured, { guardrailName: error.result.guardrail.name, agent, runContext: record.context }).pipe(
    Effect.map((placeholder) => {
      const index = record.generatedItems.indexOf(terminal);
      // A tool output becomes the final output only for function tools (`toolUseBehavior`).
      const raw = terminal.rawItem as FunctionCallResultItem;
      const rawItem = { type: 'function_call_result' as const, callId: raw.callId, name: raw.name, status: 'completed' as const, output: placeholder };
      const replaced = new RunToolCallOutputItem(raw.id !== undefined ? { ...rawItem, id: raw.id } : rawItem, terminal.agent, placeholder);
      if (index !== -1) record.generatedItems[index] = replaced;
      const blocked = error.result.agentOutput;
      const checked = record.outputGuardrailResults.filter((result) => result.agentOutput === blocked);
      for (const result of checked) result.agentOutput = placeholder;
      (error.result as { agentOutput: unknown }).agentOutput = placeholder;
      redactTerminalTrip(error, checked, raw.callId, record);
      record.currentStep = { type: 'next_step_final_output', output: placeholder, unchecked: true };
    }),
  );
}

function placeholderFor(
  configured: OutputGuardrailBlockedMessage<any> | undefined,
  args: { guardrailName: string; agent: Agent<any, any>; runContext: RunRecord['context'] },
): Effect.Effect<string> {
  const defaultMessage = OUTPUT_GUARDRAIL_BLOCKED_TOOL_OUTPUT;
  if (typeof configured === 'string') return Effect.succeed(configured);
  if (typeof configured !== 'function') return Effect.succeed(defaultMessage);
  return Effect.tryPromise(async () => configured({ defaultMessage, ...args })).pipe(
    Effect.map((text) => (typeof text === 'string' ? text : defaultMessage)),
    Effect.catch(() => Effect.succeed(defaultMessage)),
  );
}
