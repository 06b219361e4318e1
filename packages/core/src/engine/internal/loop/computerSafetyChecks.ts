import type { ComputerSafetyCheck, ComputerSafetyCheckResult, ComputerUseCallItem } from '@baton/types';

/** The safety checks the model attached to a computer call (`pending_safety_checks`), well-formed ones only. */
export function pendingSafetyChecks(call: ComputerUseCallItem): ComputerSafetyCheck[] | undefined {
  const data = call.providerData as Record<string, unknown> | undefined;
  if (typeof data !== 'object' || data === null) return undefined;
  return normalizeChecks(data.pending_safety_checks ?? data.pendingSafetyChecks);
}

/**
 * What an `onSafetyCheck` answer acknowledges: `true` all pending checks, `false` none (the call
 * is rejected), the checks it lists, or nothing (the call runs unacknowledged).
 */
export function acknowledgedChecks(result: ComputerSafetyCheckResult, pending: ComputerSafetyCheck[]): ComputerSafetyCheck[] | false | undefined {
  if (result === true) return pending;
  if (result === false) return false;
  if (typeof result !== 'object' || result === null) return undefined;
  if ('acknowledgedSafetyChecks' in result) return normalizeChecks(result.acknowledgedSafetyChecks);
  if ('acknowledged_safety_checks' in result) return normalizeChecks(result.acknowledged_safety_checks);
  return undefined;
}

function normalizeChecks(checks: unknown): ComputerSafetyCheck[] | undefined {
  if (!Array.isArray(checks)) return undefined;
  const out: ComputerSafetyCheck[] = [];
  for (const entry of checks) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { id, code, message } = entry as { id?: unknown; code?: unknown; message?: unknown };
    if (typeof id !== 'string' || id === '' || typeof code !== 'string' || code === '') continue;
    const check: ComputerSafetyCheck = { ...(entry as object), id, code };
    if (typeof message === 'string' && message !== '') check.message = message;
    else delete check.message;
    out.push(check);
  }
  return out.length > 0 ? out : undefined;
}
