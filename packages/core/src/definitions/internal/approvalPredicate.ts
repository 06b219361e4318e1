import { UserError } from '@baton/types';

/**
 * A local tool's `needsApproval` option as the function the run calls: a boolean becomes a
 * function returning it, a function is kept, nothing means no approval.
 */
export function approvalPredicate<F extends (...args: any[]) => Promise<boolean>>(option: boolean | F | undefined, label: string): F {
  if (typeof option === 'function') return option;
  if (option !== undefined && typeof option !== 'boolean') throw new UserError(`${label}: \`needsApproval\` must be a boolean or a function.`);
  const needed = option === true;
  return (async () => needed) as unknown as F;
}
