import type { RunContext } from '../runContext.js';
import type { RunConfig } from '../runner.js';

/**
 * The configuration a context is running under, so a nested run (an agent used as a tool) inherits
 * its parent's provider and policies without reaching into the parent runner.
 */
const configs = new WeakMap<RunContext<any>, RunConfig>();

export function rememberRunConfig(context: RunContext<any>, config: RunConfig): void {
  configs.set(context, config);
}

export function runConfigOf(context: RunContext<any>): RunConfig | undefined {
  return configs.get(context);
}
