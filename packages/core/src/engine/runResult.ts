import type {
  AgentInputItem,
  InputGuardrailResult,
  ModelResponse,
  OutputGuardrailResult,
  RunItem,
  RunToolApprovalItem,
  ToolInputGuardrailResult,
  ToolOutputGuardrailResult,
  Usage,
} from '@baton/types';
import type { Agent, ResolvedAgentOutput } from '../definitions/agent.js';
import type { RunContext } from '../definitions/runContext.js';
import { recordOf, type RunState } from '../state/runState.js';
import { inputToItems, runItemsToInputItems } from '../state/internal/items.js';
import { continuationItems } from '../state/internal/continuationItems.js';
import type { AgentToolInvocation } from '../state/internal/runRecord.js';

// A result typed with \`any\` for its agent has an \`any\` output, as in the reference.
type OutputOf<TAgent> = 0 extends 1 & TAgent ? any : TAgent extends Agent<any, infer TOutput> ? ResolvedAgentOutput<TOutput> : unknown;

/** What every run result offers; all getters read the run's state. */
export abstract class RunResultBase<TContext, TAgent extends Agent<any, any>> {
  constructor(readonly state: RunState<TContext, TAgent>) {}

  /** The parsed final output, or `undefined` when the run paused or has not finished. */
  get finalOutput(): OutputOf<TAgent> | undefined {
    const step = recordOf(this.state).currentStep;
    return step?.type === 'next_step_final_output' && !step.unchecked ? (step.output as OutputOf<TAgent>) : undefined;
  }

  /** The run's input (after any handoff input filters). */
  get input(): string | AgentInputItem[] {
    return this.state.originalInput;
  }

  get newItems(): RunItem[] {
    return this.state.generatedItems;
  }

  /** Input plus every generated item, as protocol items: what a follow-up run should receive. */
  get history(): AgentInputItem[] {
    const record = recordOf(this.state);
    return [...inputToItems(record.originalInput), ...continuationItems(record.generatedItems, record.reasoningItemIdPolicy)];
  }

  /** The generated items as protocol items (input added with `state.addInput` is history, not output). */
  get output(): AgentInputItem[] {
    const record = recordOf(this.state);
    return runItemsToInputItems(
      record.generatedItems.filter((item) => item.type !== 'input_item'),
      record.reasoningItemIdPolicy,
    );
  }

  get lastAgent(): TAgent {
    return this.state.currentAgent;
  }

  get activeAgent(): TAgent {
    return this.state.currentAgent;
  }

  get rawResponses(): ModelResponse[] {
    return this.state.modelResponses;
  }

  get lastResponseId(): string | undefined {
    return recordOf(this.state).modelResponses.at(-1)?.responseId;
  }

  get interruptions(): RunToolApprovalItem[] {
    return this.state.getInterruptions();
  }

  get usage(): Usage {
    return this.state.usage;
  }

  get runContext(): RunContext<TContext> {
    return this.state.context;
  }

  /** For the nested run of an agent tool: the call it answered (tool name, call id, arguments). */
  get agentToolInvocation(): AgentToolInvocation | undefined {
    return recordOf(this.state).agentToolInvocation;
  }

  get inputGuardrailResults(): InputGuardrailResult[] {
    return this.state.inputGuardrailResults;
  }

  get outputGuardrailResults(): OutputGuardrailResult[] {
    return this.state.outputGuardrailResults;
  }

  get toolInputGuardrailResults(): ToolInputGuardrailResult[] {
    return this.state.toolInputGuardrailResults;
  }

  get toolOutputGuardrailResults(): ToolOutputGuardrailResult[] {
    return this.state.toolOutputGuardrailResults;
  }
}

/** The result of a non-streamed run. */
export class RunResult<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>> extends RunResultBase<TContext, TAgent> {}
