import type { AgentInputItem } from './protocol.js';
import type { JsonObjectSchema, SerializedFunctionTool } from './model.js';
import type { RunContextContract } from './runContext.js';
import type { RunItem } from './runItem.js';
import type { RegisteredAgent } from './registry.js';

/** What a handoff input filter receives and returns. */
export interface HandoffInputData {
  /** The run's input history before this handoff. */
  inputHistory: string | AgentInputItem[];
  /** Items generated before the turn that handed off. */
  preHandoffItems: RunItem[];
  /** Items of this turn, including the handoff call and output items. */
  newItems: RunItem[];
  runContext?: RunContextContract<any>;
}

export type HandoffInputFilter = (data: HandoffInputData) => HandoffInputData | Promise<HandoffInputData>;

export type HandoffEnabledFunction<TContext = unknown> = (args: {
  runContext: RunContextContract<TContext>;
  agent: RegisteredAgent;
}) => boolean | Promise<boolean>;

/**
 * The handoff contract: a way for the current agent to transfer the conversation to `agent`.
 * Offered to the model as a strict function tool named `toolName`.
 */
export interface HandoffContract<TContext = unknown> {
  toolName: string;
  toolDescription: string;
  inputJsonSchema: JsonObjectSchema;
  strictJsonSchema: boolean;
  agentName: string;
  agent: RegisteredAgent;
  /** Called with the model's raw JSON arguments; returns the agent to continue with. */
  onInvokeHandoff(context: RunContextContract<TContext>, args: string): Promise<RegisteredAgent> | RegisteredAgent;
  inputFilter?: HandoffInputFilter;
  isEnabled: HandoffEnabledFunction<TContext>;
  getHandoffAsFunctionTool(): SerializedFunctionTool;
}

/** The tool output recorded when a handoff happens. */
export function getTransferMessage(agent: { name: string }): string {
  return JSON.stringify({ assistant: agent.name });
}
