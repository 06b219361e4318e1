import {
  CURRENT_RUN_STATE_SCHEMA_VERSION,
  Usage,
  type AgentInputItem,
  type ApproveOptions,
  type InputGuardrailResult,
  type ModelResponse,
  type OutputGuardrailResult,
  type RejectOptions,
  type RunItem,
  type RunToolApprovalItem,
  type SerializedRunState,
  type ToolInputGuardrailResult,
  type ToolOutputGuardrailResult,
} from '@baton/types';
import type { Agent } from './agent.js';
import { RunContext, type ApprovalSubject } from './runContext.js';
import { pendingRunKey, type RunRecord } from './internal/runRecord.js';

let readRecord: (state: RunState<any, any>) => RunRecord;

/**
 * Everything needed to continue a run, with read-only getters to inspect it after an error or a
 * pause, and `approve` / `reject` to decide pending tool calls before resuming with `run(agent, state)`.
 */
export class RunState<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>> {
  readonly #record: RunRecord<TContext>;

  static {
    readRecord = (state) => state.#record;
  }

  constructor(context: RunContext<TContext>, originalInput: string | AgentInputItem[], startingAgent: TAgent, maxTurns: number | null) {
    this.#record = {
      context,
      originalInput,
      currentAgent: startingAgent,
      currentTurn: 0,
      maxTurns,
      generatedItems: [],
      modelResponses: [],
      currentStep: undefined,
      inputGuardrailResults: [],
      outputGuardrailResults: [],
      toolInputGuardrailResults: [],
      toolOutputGuardrailResults: [],
      pendingAgentToolRuns: new Map(),
    };
  }

  /** Turns that reached the model (a resumed approval does not count as a new turn). */
  get currentTurn(): number {
    return this.#record.currentTurn;
  }

  get currentAgent(): TAgent {
    return this.#record.currentAgent as TAgent;
  }

  get maxTurns(): number | null {
    return this.#record.maxTurns;
  }

  get usage(): Usage {
    return this.#record.context.usage;
  }

  get context(): RunContext<TContext> {
    return this.#record.context;
  }

  get originalInput(): string | AgentInputItem[] {
    return this.#record.originalInput;
  }

  /** Items generated so far (a copy). */
  get generatedItems(): RunItem[] {
    return [...this.#record.generatedItems];
  }

  get modelResponses(): ModelResponse[] {
    return [...this.#record.modelResponses];
  }

  get inputGuardrailResults(): InputGuardrailResult[] {
    return [...this.#record.inputGuardrailResults];
  }

  get outputGuardrailResults(): OutputGuardrailResult[] {
    return [...this.#record.outputGuardrailResults];
  }

  get toolInputGuardrailResults(): ToolInputGuardrailResult[] {
    return [...this.#record.toolInputGuardrailResults];
  }

  get toolOutputGuardrailResults(): ToolOutputGuardrailResult[] {
    return [...this.#record.toolOutputGuardrailResults];
  }

  /** Tool calls waiting for a decision (including those of nested agent-tool runs). */
  getInterruptions(): RunToolApprovalItem[] {
    const step = this.#record.currentStep;
    return step?.type === 'next_step_interruption' ? [...step.interruptions] : [];
  }

  approve(item: ApprovalSubject, options: ApproveOptions = {}): void {
    this.#record.context.approveTool(item, options);
  }

  reject(item: ApprovalSubject, options: RejectOptions = {}): void {
    this.#record.context.rejectTool(item, options);
  }

  hasPendingAgentToolRun(toolName: string, callId: string): boolean {
    return this.#record.pendingAgentToolRuns.has(pendingRunKey(toolName, callId));
  }

  /** The serialized state of a paused nested agent-tool run. */
  getPendingAgentToolRun(toolName: string, callId: string): string | undefined {
    const nested = this.#record.pendingAgentToolRuns.get(pendingRunKey(toolName, callId));
    return nested === undefined ? undefined : String(nested);
  }

  /** The serialized form (schema version `$schemaVersion`). Agents are referenced by name. */
  toJSON(): SerializedRunState {
    const r = this.#record;
    const step = r.currentStep;
    const json: SerializedRunState = {
      $schemaVersion: CURRENT_RUN_STATE_SCHEMA_VERSION,
      currentTurn: r.currentTurn,
      maxTurns: r.maxTurns,
      currentAgent: { name: r.currentAgent.name },
      originalInput: r.originalInput as SerializedRunState['originalInput'],
      generatedItems: r.generatedItems.map((item) => item.toJSON() as unknown as SerializedRunState['generatedItems'][number]),
      modelResponses: r.modelResponses.map((response) => ({
        ...response,
        usage: new Usage(response.usage).toJSON(),
      })) as SerializedRunState['modelResponses'],
      context: r.context.toJSON() as SerializedRunState['context'],
      inputGuardrailResults: r.inputGuardrailResults,
      outputGuardrailResults: r.outputGuardrailResults.map((result) => ({
        ...result,
        agent: { name: (result.agent as { name: string }).name },
      })),
      toolInputGuardrailResults: r.toolInputGuardrailResults,
      toolOutputGuardrailResults: r.toolOutputGuardrailResults,
      pendingAgentToolRuns: Object.fromEntries([...r.pendingAgentToolRuns].map(([key, nested]) => [key, String(nested)])),
    };
    if (step) {
      json.currentStep =
        step.type === 'next_step_interruption'
          ? { type: step.type, interruptions: step.interruptions.map((i) => i.toJSON() as unknown as SerializedRunState['generatedItems'][number]) }
          : step.type === 'next_step_final_output'
            ? { type: step.type, output: typeof step.output === 'string' ? step.output : JSON.stringify(step.output) }
            : { type: step.type };
    }
    return json;
  }

  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

/** The record behind a state (core-internal). */
export function recordOf<TContext>(state: RunState<TContext, any>): RunRecord<TContext> {
  return readRecord(state) as RunRecord<TContext>;
}
