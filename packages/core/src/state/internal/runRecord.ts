import type { AgentToolInvocation } from '../../definitions/agentTool.js';
import * as Effect from 'effect/Effect';
import {
  RunStateError,
  type AgentInputItem,
  type FunctionCallResultItem,
  type InputGuardrailResult,
  type ModelResponse,
  type OutputGuardrailResult,
  type RunItem,
  type RunMessageOutputItem,
  type RunToolApprovalItem,
  type ToolInputGuardrailResult,
  type ToolOutputGuardrailResult,
} from '@baton/types';
import type { ReasoningItemIdPolicy } from '@baton/types';
import type { Agent } from '../../definitions/agent.js';
import type { RunContext } from '../../definitions/runContext.js';
import type { SerializedTrace } from '../../definitions/runTracing.js';
import type { SessionProgress, UnsavedForSession } from './sessionProgress.js';
import { PendingAgentToolRuns } from './pendingAgentToolRuns.js';
import type { PreparedToolInput } from '../../definitions/internal/toolCallScope.js';

/** What the last turn decided. */
export type NextStep =
  | { type: 'next_step_run_again' }
  | { type: 'next_step_handoff' }
  /** `unchecked` until the output guardrails passed: hidden from `finalOutput`, checked again on the next run. */
  | { type: 'next_step_final_output'; output: unknown; unchecked?: boolean }
  | { type: 'next_step_interruption'; interruptions: RunToolApprovalItem[] };

/**
 * The one record of a run: everything needed to continue it. The phases of the loop are
 * transitions over this record; `RunState` is its public, read-only face.
 */
export interface RunRecord<TContext = any> {
  context: RunContext<TContext>;
  /**
   * The run's id: made (as a step) when the run first starts, kept in the serialized state, so a
   * resumed run has the same id. Undefined before the first start.
   */
  runId?: string | undefined;
  /** The agent the run started with: the root of the graph agent references resolve against. */
  rootAgent: Agent<any, any>;
  originalInput: string | AgentInputItem[];
  currentAgent: Agent<any, any>;
  currentTurn: number;
  maxTurns: number | null;
  generatedItems: RunItem[];
  modelResponses: ModelResponse[];
  currentStep: NextStep | undefined;
  /** A turn's model call has counted it and its tools have not all settled yet (a cancelled run may stop inside one). */
  turnInProgress?: boolean;
  /** The final output came from an error handler (a nested agent tool then answers with it, not the last response's text). */
  finalOutputFromErrorHandler?: boolean;
  /**
   * A max-turns error handler's answer, checked by the output guardrails and waiting to join the
   * run's items: it is published (items, stream) once the run is in its session, never before.
   */
  heldFinalItem?: RunMessageOutputItem | undefined;
  inputGuardrailResults: InputGuardrailResult[];
  outputGuardrailResults: OutputGuardrailResult[];
  toolInputGuardrailResults: ToolInputGuardrailResult[];
  toolOutputGuardrailResults: ToolOutputGuardrailResult[];
  /**
   * Paused nested runs of agent tools, keyed `<toolName>:<callId>`: each one's serialized state as
   * written when it paused, so a resume strategy can choose between its context and a live one.
   */
  pendingAgentToolRuns: PendingAgentToolRuns;
  /**
   * Arguments a dynamic `needsApproval` was asked about for a call the run paused on, keyed
   * `<toolName>:<callId>`: the resumed call runs with them as read. In memory only (a state read
   * back reads them again, as the reference's does).
   */
  approvalInputs?: Map<string, PreparedToolInput> | undefined;
  /**
   * Read from a state written while its run held a paused turn back from its session: what the
   * session has not received. A run resumed from it with a session writes them once the turn completes.
   */
  sessionUnsaved?: UnsavedForSession | undefined;
  /** Input staged with `state.addInput(...)`, admitted as `RunInputItem`s right before the next model call. */
  pendingInput: AgentInputItem[];
  /** How reasoning items' ids go back to the model; kept with the state so a resumed run keeps it. */
  reasoningItemIdPolicy?: ReasoningItemIdPolicy;
  /** The trace of the run's last traced start: a resumed run continues it. */
  trace?: SerializedTrace | undefined;
  /** The session this run writes to, and what it has written (absent without a session). */
  session?: SessionProgress;
  /**
   * What the model call in flight rejected with when the caller's signal cancelled the run (its
   * own abort error): the run rejects with it, as the reference's does. Cleared when a run starts.
   */
  abortedWith?: unknown;
  /**
   * Set for a run whose provider keeps the conversation (`previousResponseId` / `conversationId`):
   * what the server has seen so far. Per run, from its options; not serialized.
   */
  serverConversation?: ServerConversation | undefined;
  /** Set while a run is executing the loop on this record (a state is resumed by one run at a time). */
  running?: boolean;
  /**
   * The agent-tool call this run answered, set by `agent.asTool()` when its nested run completes
   * (read as `result.agentToolInvocation`). Runtime only: never serialized, cleared when a run starts.
   */
  agentToolInvocation?: AgentToolInvocation | undefined;
  /**
   * The copy of `originalInput` a `callModelInputFilter` with `preserveInputIdentity` sees on
   * every turn (remade when `originalInput` is replaced). Runtime only.
   */
  preparedOriginalInput?: { readonly source: string | AgentInputItem[]; readonly items: AgentInputItem[] } | undefined;
}

export type { AgentToolInvocation } from '../../definitions/agentTool.js';

/** The record of a run that has not started yet. */
export function newRunRecord<TContext>(
  context: RunContext<TContext>,
  originalInput: string | AgentInputItem[],
  startingAgent: Agent<any, any>,
  maxTurns: number | null,
): RunRecord<TContext> {
  return {
    context,
    rootAgent: startingAgent,
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
    pendingAgentToolRuns: new PendingAgentToolRuns(),
    pendingInput: [],
    // Set by every run: listed here, they live in the record itself instead of a properties
    // array added when the first of them is set (less memory per kept run, no shape changes).
    runId: undefined,
    running: false,
    abortedWith: undefined,
    agentToolInvocation: undefined,
    serverConversation: undefined,
  };
}

/**
 * A conversation the model provider stores: each request sends only what the server has not
 * seen, chained by the previous response id (or a conversation id).
 */
export interface ServerConversation {
  previousResponseId: string | undefined;
  readonly conversationId: string | undefined;
  /** How many generated items the server has seen; undefined before the first request. */
  knownItems: number | undefined;
  /**
   * Items before `knownItems` the server has not seen after all (added to a paused state's items
   * by hand, say): a resumed run sends them with its first request.
   */
  unsentKnown?: ReadonlySet<RunItem> | undefined;
  /** Outputs owed to the server for calls it made that the run ignored (extra handoffs). */
  owedOutputs: FunctionCallResultItem[];
  /**
   * Owed outputs sent in the request in flight: owed again until its response arrives (a request
   * cancelled before then may not have reached the server, so a resumed run sends them again).
   */
  sentOwed?: FunctionCallResultItem[] | undefined;
}

/**
 * The outputs a run resumed on the same server conversation still owes: those sent in a request
 * whose response never came, then those not sent yet.
 */
export function stillOwed(previous: ServerConversation | undefined): FunctionCallResultItem[] {
  if (previous === undefined) return [];
  return [...(previous.sentOwed ?? []), ...previous.owedOutputs];
}

export function pendingRunKey(toolName: string, callId: string): string {
  return `${toolName}:${callId}`;
}

/**
 * Runs `program` as the only run of this record: a second run of the same state while the first is
 * still going fails with `RunStateError('already_resuming')` before touching the state.
 */
export function exclusively<A, E>(record: RunRecord, program: Effect.Effect<A, E>): Effect.Effect<A, E | RunStateError> {
  return Effect.suspend((): Effect.Effect<A, E | RunStateError> => {
    if (record.running) {
      return Effect.fail(
        new RunStateError(
          'already_resuming',
          'This run state is already being resumed by another run. A paused run is resumed once at a time: wait for that run, then resume from its result.',
        ),
      );
    }
    record.running = true;
    record.abortedWith = undefined;
    record.agentToolInvocation = undefined;
    return program.pipe(
      Effect.ensuring(
        Effect.sync(() => {
          record.running = false;
          compact(record);
        }),
      ),
    );
  });
}

/**
 * The record's lists, copied to their length when a run stops: a list grown by push reserves room
 * for about 17 entries, and a finished or paused run's record lives as long as its result (a
 * server holding paused runs keeps thousands). Copies, so nothing that read a list during the run
 * sees it change afterwards.
 */
function compact(record: RunRecord): void {
  record.generatedItems = record.generatedItems.slice();
  record.modelResponses = record.modelResponses.slice();
  const step = record.currentStep;
  if (step?.type === 'next_step_interruption') record.currentStep = { ...step, interruptions: step.interruptions.slice() };
}
