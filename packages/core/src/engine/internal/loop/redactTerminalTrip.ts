import type { OutputGuardrailResult, ToolGuardrailBehavior, ToolOutputGuardrailResult } from '@baton/types';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { observedVerdict } from './guardrailVerdicts.js';
import { toolOutputGuardrailCall } from './toolGuardrailCalls.js';

/** The message of a tripwire on a withheld tool output: its `outputInfo` may describe the output. */
export const TERMINAL_TRIP_MESSAGE = 'Output guardrail triggered.';

/**
 * An output guardrail blocked a tool's output that was the final output: what the guardrails said
 * about it is dropped too. The output guardrail results of this check, and the tool output
 * guardrail results of the calls behind it, are replaced by copies without `outputInfo` or extra
 * fields (the originals, possibly frozen, are left as they were). A tool guardrail result whose
 * behaviour can no longer be read is left out. Earlier calls' results stay as recorded. Returns the
 * copy of `trip` (the result the tripwire error carries, as "Output guardrail triggered.").
 */
export function redactTerminalTrip(trip: OutputGuardrailResult, blocked: readonly OutputGuardrailResult[], callIds: ReadonlySet<string>, record: RunRecord): OutputGuardrailResult {
  const sanitized = new Map<OutputGuardrailResult, OutputGuardrailResult>();
  for (const result of blocked) sanitized.set(result, { ...result, output: { tripwireTriggered: observedVerdict(result) ?? true, outputInfo: undefined } });
  record.outputGuardrailResults.splice(0, record.outputGuardrailResults.length, ...record.outputGuardrailResults.map((result) => sanitized.get(result) ?? result));
  const kept: ToolOutputGuardrailResult[] = [];
  for (const result of record.toolOutputGuardrailResults) {
    const call = toolOutputGuardrailCall(result);
    if (call === undefined || !callIds.has(call)) {
      kept.push(result);
      continue;
    }
    const behavior = readableBehavior(result);
    if (behavior) kept.push({ guardrail: { type: 'tool_output', name: result.guardrail.name }, output: { behavior, outputInfo: undefined } });
  }
  record.toolOutputGuardrailResults.splice(0, record.toolOutputGuardrailResults.length, ...kept);
  return sanitized.get(trip) ?? { ...trip, output: { tripwireTriggered: true, outputInfo: undefined } };
}

function readableBehavior(result: ToolOutputGuardrailResult): ToolGuardrailBehavior | undefined {
  try {
    const behavior = result.output.behavior;
    if (behavior.type === 'rejectContent') return { type: 'rejectContent', message: String(behavior.message) };
    return behavior.type === 'allow' || behavior.type === 'throwException' ? { type: behavior.type } : undefined;
  } catch {
    return undefined;
  }
}
