import { readRunStateJson } from '@baton/types/internal';
import { type SerializedRunItem, type SerializedRunState } from '@baton/types';
import { RunStoreError, type CommittedToolOutput } from './store/runStateStore.js';

// The previous version journaled only the outputs of the interrupted turn's calls, as rows of
// `commitToolOutput`. A run it claimed and left unfinished still has those rows: they are put back
// into the state before the resume, so the calls they answer do not run again.

/**
 * Puts committed tool outputs back into a stored state: each output of a call of the interrupted
 * turn that has none yet is appended to the history (so resuming does not run the call again), and a
 * paused nested run of that call is dropped. Returns the state and the calls still to be guarded.
 */
export function withCommittedOutputs(
  runId: string,
  text: string,
  committed: readonly CommittedToolOutput[],
): { text: string; guardedCalls: Set<string> } {
  const { state } = readRunStateJson(text);
  const guardedCalls = unansweredCalls(state);
  if (committed.length === 0 || guardedCalls.size === 0) return { text, guardedCalls };
  const added: SerializedRunItem[] = [];
  const pendingAgentToolRuns: Record<string, string> = { ...state.pendingAgentToolRuns };
  for (const output of committed) {
    if (!guardedCalls.has(output.callId)) continue;
    let item: Omit<Extract<SerializedRunItem, { type: 'tool_call_output_item' }>, 'agent'>;
    try {
      item = JSON.parse(output.item);
    } catch {
      throw new RunStoreError('invalid_state', runId, `Run ${runId}: the committed output of call ${output.callId} is not JSON.`);
    }
    // An item without `agent` belongs to the state's current agent: the one whose calls these are.
    added.push({ ...item, type: 'tool_call_output_item' });
    delete pendingAgentToolRuns[`${item.rawItem.name}:${output.callId}`];
    guardedCalls.delete(output.callId);
  }
  if (added.length === 0) return { text, guardedCalls };
  const next: SerializedRunState = { ...state, generatedItems: [...state.generatedItems, ...added], pendingAgentToolRuns };
  return { text: JSON.stringify(next), guardedCalls };
}

/** The calls of the interrupted response that have no output yet (those a resume will run). */
function unansweredCalls(state: SerializedRunState): Set<string> {
  const calls = new Set<string>();
  if (state.currentStep?.type !== 'next_step_interruption') return calls;
  for (const output of state.modelResponses.at(-1)?.output ?? []) {
    if (output.type === 'function_call') calls.add((output as unknown as { callId: string }).callId);
  }
  for (const item of state.generatedItems) if (item.type === 'tool_call_output_item') calls.delete(item.rawItem.callId);
  return calls;
}
