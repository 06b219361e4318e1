import type {
  AgentInputItem,
  InputGuardrailResult,
  ModelResponse,
  OutputGuardrailResult,
  RunItem,
  RunToolApprovalItem,
  ToolInputGuardrailResult,
  ToolOutputGuardrailResult,
} from '@baton/types';
import type { Agent } from '../agent.js';
import type { RunContext } from '../runContext.js';

/** What the last turn decided. */
export type NextStep =
  | { type: 'next_step_run_again' }
  | { type: 'next_step_handoff' }
  | { type: 'next_step_final_output'; output: unknown }
  | { type: 'next_step_interruption'; interruptions: RunToolApprovalItem[] };

/**
 * The one record of a run: everything needed to continue it. The phases of the loop are
 * transitions over this record; `RunState` is its public, read-only face.
 */
export interface RunRecord<TContext = any> {
  context: RunContext<TContext>;
  originalInput: string | AgentInputItem[];
  currentAgent: Agent<any, any>;
  currentTurn: number;
  maxTurns: number | null;
  generatedItems: RunItem[];
  modelResponses: ModelResponse[];
  currentStep: NextStep | undefined;
  inputGuardrailResults: InputGuardrailResult[];
  outputGuardrailResults: OutputGuardrailResult[];
  toolInputGuardrailResults: ToolInputGuardrailResult[];
  toolOutputGuardrailResults: ToolOutputGuardrailResult[];
  /** Paused nested runs of agent tools, keyed `<toolName>:<callId>`. */
  pendingAgentToolRuns: Map<string, unknown>;
}

export function pendingRunKey(toolName: string, callId: string): string {
  return `${toolName}:${callId}`;
}
