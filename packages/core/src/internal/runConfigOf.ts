import type { ToolCallDetails } from '@baton/types';
import type { RunConfig } from '../runner.js';

/**
 * The configuration of the run that made a tool call, keyed by that call's details object, so a
 * nested run (an agent used as a tool) inherits its parent's provider and policies. Keyed per
 * call, not per context: other runs sharing the context (a checker agent) must not overwrite it.
 */
const configs = new WeakMap<ToolCallDetails, RunConfig>();

export function rememberRunConfig(details: ToolCallDetails, config: RunConfig): void {
  configs.set(details, config);
}

export function runConfigOf(details: ToolCallDetails): RunConfig | undefined {
  return configs.get(details);
}
