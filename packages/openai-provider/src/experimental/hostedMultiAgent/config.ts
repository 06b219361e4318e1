import { UserError } from '@baton/types';

/** How the service runs the hosted subagents of an `OpenAIHostedMultiAgentModel`. */
export type HostedMultiAgentConfig = Readonly<{
  /** The most hosted subagents active at one time; left out, the service decides. */
  maxConcurrentSubagents?: number;
}>;

/** The config checked and frozen: `maxConcurrentSubagents`, when given, is a whole number above 0. */
export function checkHostedMultiAgentConfig(config: HostedMultiAgentConfig | undefined): HostedMultiAgentConfig {
  const limit = config?.maxConcurrentSubagents;
  if (limit === undefined) return Object.freeze({});
  if (!Number.isInteger(limit) || limit <= 0) {
    throw new UserError(`HostedMultiAgentConfig.maxConcurrentSubagents must be a positive integer, got ${String(limit)}.`);
  }
  return Object.freeze({ maxConcurrentSubagents: limit });
}
