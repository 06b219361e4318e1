import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { LoopEnv } from './loopEnv.js';

/**
 * Whether a run that pauses holds its session writes back until the paused turn completes, as the
 * reference does: when output guardrails check the agent's answer, the turn's tools may give that
 * answer (any `toolUseBehavior` but `'run_llm_again'`), and the paused turn already holds output a
 * guardrail's verdict may withhold (a tool's output, a hosted tool's result, any response item that
 * is not a function call). Written now, it would be in the session before the guardrails saw it.
 */
export function holdsPausedTurn(record: RunRecord, env: LoopEnv): boolean {
  const agent = record.currentAgent;
  if (record.currentStep?.type !== 'next_step_interruption') return false;
  if (env.outputGuardrails.length === 0 && agent.outputGuardrails.length === 0) return false;
  if (agent.toolUseBehavior === 'run_llm_again') return false;
  return pausedTurnBearsOutput(record);
}

/** The paused turn's response holds more than function calls, or one of its calls has an output already (a partial approval ran it). */
function pausedTurnBearsOutput(record: RunRecord): boolean {
  const response = record.modelResponses.at(-1);
  if (response === undefined) return true;
  const callIds = new Set<string>();
  for (const item of response.output) {
    if (item.type !== 'function_call') return true;
    callIds.add(item.callId);
  }
  return record.generatedItems.some((item) => item.type === 'tool_call_output_item' && callIds.has((item.rawItem as { callId?: string }).callId ?? ''));
}
