import { UserError, type MCPToolApprovalPolicy } from '@baton/types';

export function checkPositiveInteger(value: number, label: string): number {
  if (!Number.isInteger(value) || value < 1) throw new UserError(`${label} must be a positive integer, got ${String(value)}.`);
  return value;
}

/** `'always'`, `'never'`, a function, or `{ always?: { toolNames }, never?: { toolNames } }` with lists of names. */
export function checkApprovalPolicy<T extends MCPToolApprovalPolicy<any>>(policy: T, label: string): T {
  if (policy === 'always' || policy === 'never' || typeof policy === 'function') return policy;
  if (typeof policy === 'object' && policy !== null) {
    for (const key of ['always', 'never'] as const) {
      const entry = (policy as Record<string, unknown>)[key];
      if (entry === undefined) continue;
      const names = (entry as { toolNames?: unknown } | null)?.toolNames;
      if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
        throw new UserError(`${label}: \`requireApproval.${key}.toolNames\` must be a list of tool names.`);
      }
    }
    return policy;
  }
  throw new UserError(`${label}: \`requireApproval\` must be 'always', 'never', { always, never } lists of tool names, or a function.`);
}
