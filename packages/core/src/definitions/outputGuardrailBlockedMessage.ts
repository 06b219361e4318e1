import type { Agent } from './agent.js';
import type { RunContext } from './runContext.js';

/** What stands in for a tool's output when an output guardrail blocked it as the run's final output. */
export const OUTPUT_GUARDRAIL_BLOCKED_TOOL_OUTPUT = 'Output withheld by an output guardrail.';

export interface OutputGuardrailBlockedMessageArgs<TContext = unknown> {
  /** Baton's placeholder (`OUTPUT_GUARDRAIL_BLOCKED_TOOL_OUTPUT`). */
  defaultMessage: string;
  /** The output guardrail that tripped. */
  guardrailName: string;
  /** The agent whose tool output was the final output. */
  agent: Agent<TContext, any>;
  runContext: RunContext<TContext>;
}

export type OutputGuardrailBlockedMessageFormatter<TContext = unknown> = (
  args: OutputGuardrailBlockedMessageArgs<TContext>,
) => string | undefined | Promise<string | undefined>;

/**
 * The placeholder kept instead of a tool output that an output guardrail blocked as the final
 * output (`toolUseBehavior: 'stop_on_first_tool'` or `stopAtToolNames`): a string, or a function of
 * the guardrail and agent. The blocked output never reaches the session, the run state or the
 * tripwire error; a formatter that fails or returns no string gives the default.
 */
export type OutputGuardrailBlockedMessage<TContext = unknown> = string | OutputGuardrailBlockedMessageFormatter<TContext>;
