import type { OutputGuardrailResult } from '@baton/types';

/**
 * A guardrail's verdict (`tripwireTriggered`) is read once, when it completes; what was read then
 * is what the run acts on and reports, even if the returned object later reads differently.
 */
const verdicts = new WeakMap<OutputGuardrailResult, boolean>();

export function noteVerdict(result: OutputGuardrailResult, tripped: boolean): void {
  verdicts.set(result, tripped);
}

/** The verdict observed when the guardrail completed (undefined for a result the run did not record). */
export function observedVerdict(result: OutputGuardrailResult): boolean | undefined {
  return verdicts.get(result);
}
