import { CURRENT_RUN_STATE_SCHEMA_VERSION, assertReadableVersion, isReferenceRunState, parseRunStateText, readRunStateValue } from '@baton/types/internal';
import { RunStateError, type SerializedAgentRef, type SerializedRunState } from '@baton/types';
import { recordsOf, type ApprovalRecord } from './approvals.js';
import { readState, splitNestedRunKey } from './internal/read.js';

/** What a run was doing when it was serialized. */
export type RunStateStatus = 'not_started' | 'in_progress' | 'interrupted' | 'completed';

export interface NestedRunSummary {
  /** `<toolName>:<callId>` of the agent tool whose nested run is paused. */
  key: string;
  toolName: string;
  callId: string;
  /** The nested run's current agent. */
  agent: SerializedAgentRef;
  /** Keys of the paused runs it sits in, outermost first (empty for a run of the top-level state). */
  nestedIn: string[];
}

/** A state this package can read: everything you need to route, list or display it. */
export interface RunStateSummary {
  supported: true;
  /** The `$schemaVersion` it was written with. */
  schemaVersion: string;
  /** The version this package writes (a state with an older version is migrated when read). */
  currentSchemaVersion: string;
  status: RunStateStatus;
  currentTurn: number;
  maxTurns: number | null;
  currentAgent: SerializedAgentRef;
  /** Every agent referenced (also inside paused agent-tool runs), each once, in order of appearance. */
  agents: SerializedAgentRef[];
  /** Calls waiting for a decision (including those inside paused agent-tool runs), with their records. */
  pendingApprovals: ApprovalRecord[];
  nestedRuns: NestedRunSummary[];
  /** The final output text, when the run completed. */
  finalOutput?: string;
}

/** A state written with a schema version this package cannot read (for example by a newer release). */
export interface UnsupportedRunStateSummary {
  supported: false;
  schemaVersion: string;
  currentSchemaVersion: string;
  reason: 'newer_version' | 'unsupported_version';
  message: string;
}

/**
 * Reads a serialized run state without an agent graph: its schema version, status, the agents it
 * references and the approvals waiting for a decision. A state whose schema version this package
 * does not know is not an error here: the result says `supported: false` with the version, so an
 * application can route it to the package version that wrote it. Throws `RunStateError` for input
 * that is not a run state at all (not JSON, no `$schemaVersion`, or invalid for its version).
 */
export function inspectRunState(text: string): RunStateSummary | UnsupportedRunStateSummary {
  const value = parseRunStateText(typeof text === 'string' ? text : String(text));
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const version = (value as { $schemaVersion?: unknown }).$schemaVersion;
    try {
      // A state stored by @openai/agents (schema 1.x) is read through its mapping onto Baton's.
      if (!isReferenceRunState(value)) assertReadableVersion(version);
    } catch (error) {
      if (error instanceof RunStateError && (error.reason === 'newer_version' || error.reason === 'unsupported_version') && typeof version === 'string') {
        return { supported: false, schemaVersion: version, currentSchemaVersion: CURRENT_RUN_STATE_SCHEMA_VERSION, reason: error.reason, message: error.message };
      }
      throw error;
    }
  }
  const { state, writtenVersion } = readRunStateValue(value);
  return summarize(state, writtenVersion);
}

function summarize(state: SerializedRunState, writtenVersion: string): RunStateSummary {
  const agents = new Map<string, SerializedAgentRef>();
  const nestedRuns: NestedRunSummary[] = [];
  collect(state, [], agents, nestedRuns);
  const step = state.currentStep;
  const summary: RunStateSummary = {
    supported: true,
    schemaVersion: writtenVersion,
    currentSchemaVersion: CURRENT_RUN_STATE_SCHEMA_VERSION,
    status:
      step?.type === 'next_step_interruption'
        ? 'interrupted'
        : step?.type === 'next_step_final_output'
          ? 'completed'
          : step === undefined && state.currentTurn === 0
            ? 'not_started'
            : 'in_progress',
    currentTurn: state.currentTurn,
    maxTurns: state.maxTurns,
    currentAgent: state.currentAgent,
    agents: [...agents.values()],
    pendingApprovals: recordsOf(state).filter((record) => record.pending),
    nestedRuns,
  };
  if (step?.type === 'next_step_final_output') summary.finalOutput = step.output;
  return summary;
}

function collect(state: SerializedRunState, nestedIn: string[], agents: Map<string, SerializedAgentRef>, nestedRuns: NestedRunSummary[]): void {
  const add = (ref: SerializedAgentRef | undefined) => {
    // An item without `agent` belongs to the current agent, added first.
    if (!ref) return;
    const id = ref.identity ?? ref.name;
    if (!agents.has(id)) agents.set(id, ref);
  };
  add(state.currentAgent);
  for (const item of state.generatedItems) {
    if (item.type === 'handoff_output_item') {
      add(item.sourceAgent);
      add(item.targetAgent);
    } else {
      add(item.agent);
    }
  }
  for (const result of state.outputGuardrailResults) add(result.agent);
  if (state.currentStep?.type === 'next_step_interruption') for (const item of state.currentStep.interruptions) add(item.agent);
  for (const key of Object.keys(state.pendingAgentToolRuns)) {
    const nested = readState(state.pendingAgentToolRuns[key]!);
    nestedRuns.push({ key, ...splitNestedRunKey(key), agent: nested.currentAgent, nestedIn });
    collect(nested, [...nestedIn, key], agents, nestedRuns);
  }
}
