import type { FunctionTool, Tool } from '@baton/types';

/**
 * Checks whose answer never changes (a tool made with `needsApproval` or `isEnabled` given as a
 * boolean, or left at its default): the run reads the answer instead of awaiting the check for
 * every call and turn. Keyed by the check itself, so a tool whose check is replaced later is asked.
 */
const fixedAnswers = new WeakMap<object, boolean>();

export function withFixedAnswer<F extends (...args: any[]) => Promise<boolean>>(check: F, answer: boolean): F {
  fixedAnswers.set(check, answer);
  return check;
}

/** The answer a check always gives, or undefined when it has to be asked. */
export function fixedAnswerOf(check: unknown): boolean | undefined {
  return typeof check === 'function' ? fixedAnswers.get(check) : undefined;
}

/** The function tools enabled among `tools` when every one's `isEnabled` is fixed; undefined when one has to be asked. */
export function fixedlyEnabledTools(tools: readonly Tool<any>[]): FunctionTool<any>[] | undefined {
  const enabled: FunctionTool<any>[] = [];
  for (const tool of tools) {
    if (tool.type !== 'function') continue;
    const answer = fixedAnswerOf(tool.isEnabled);
    if (answer === undefined) return undefined;
    if (answer) enabled.push(tool);
  }
  return enabled;
}
