import type { ToolOutputGuardrailResult } from '@baton/types';

/**
 * Which tool call a recorded tool output guardrail result belongs to, so a later decision about
 * that call (an output guardrail blocking it as the final output) can find its results.
 */
const callOf = new WeakMap<ToolOutputGuardrailResult, string>();

export function noteToolOutputGuardrailCall(result: ToolOutputGuardrailResult, callId: string): void {
  callOf.set(result, callId);
}

export function toolOutputGuardrailCall(result: ToolOutputGuardrailResult): string | undefined {
  return callOf.get(result);
}
