import { readRunStateJson } from '@baton/types/internal';
import { Runner, type Agent, type RunState, type StreamRunOptions, type StreamedRunResult } from '@baton/core';
import { type SerializedRunItem, type SerializedRunState } from '@baton/types';
import { loadRunState, type LoadRunStateOptions } from './identity.js';
import { RunStoreError, requireLease, type CommittedToolOutput, type RunStateStore, type StoredRun } from './store/runStateStore.js';

export interface ResumePausedRunOptions<TContext> extends LoadRunStateOptions<TContext> {
  /** Who resumes (recorded with the claim). */
  workerId: string;
  /** How long the claim holds without renewal; it is renewed every third of it while the run goes on. Default 5 minutes. */
  leaseMs?: number;
  /** The runner to resume with (default: a new `Runner()`). */
  runner?: Runner;
  /** Options for the resumed run (the run is streamed so tool outputs are committed as they happen). */
  runOptions?: Omit<StreamRunOptions<TContext>, 'stream' | 'context'>;
}

export type ResumePausedRunOutcome<TContext, TAgent extends Agent<any, any>> =
  /** Another worker holds the run, or it is completed or unknown: nothing was resumed. */
  | { status: 'not_claimed'; run: StoredRun | undefined }
  /** Resumed; it paused again for new approvals (`result.interruptions`) or completed. */
  | { status: 'paused' | 'completed'; run: StoredRun; result: StreamedRunResult<TContext, TAgent> };

/**
 * Resumes a paused run from a store exactly once: claims it (a racing worker gets `not_claimed`),
 * rebuilds the state against `rootAgent`, resumes it, and stores the outcome. Each output of a call
 * of the interrupted turn is committed to the store as soon as it exists; if the resume fails or the
 * worker dies, the next worker puts those outputs back into the state before resuming, so a
 * committed call is never executed again. On failure the run is released with its state untouched.
 */
export async function resumePausedRun<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>>(
  store: RunStateStore,
  runId: string,
  rootAgent: TAgent,
  options: ResumePausedRunOptions<TContext>,
): Promise<ResumePausedRunOutcome<TContext, TAgent>> {
  const leaseMs = requireLease(options.leaseMs);
  const claim = await store.claim(runId, { workerId: options.workerId, leaseMs });
  if (!claim) return { status: 'not_claimed', run: await store.load(runId) };

  let lost: unknown;
  let result: StreamedRunResult<TContext, TAgent> | undefined;
  let current = claim;
  const renewal = setInterval(() => {
    store.renew(current, leaseMs).then(
      (renewed) => void (current = renewed),
      (error: unknown) => {
        lost = error;
        result?.cancel();
      },
    );
  }, Math.max(10, Math.floor(leaseMs / 3)));
  renewal.unref?.();
  try {
    const committed = await store.committedToolOutputs(runId);
    const { text, guardedCalls } = withCommittedOutputs(runId, claim.state, committed);
    const state: RunState<TContext, TAgent> = await loadRunState<TContext, TAgent>(rootAgent, text, options);
    const runner = options.runner ?? new Runner();
    // A one-event buffer: the run waits while an output is being committed.
    result = await runner.run(rootAgent, state, { streamBufferSize: 1, ...options.runOptions, stream: true });
    for await (const event of result) {
      if (event.type !== 'run_item_stream_event' || event.item.type !== 'tool_call_output_item') continue;
      const callId = event.item.rawItem.callId;
      if (!guardedCalls.has(callId)) continue;
      const { agent: _agent, ...item } = event.item.toJSON();
      await store.commitToolOutput(current, { callId, item: JSON.stringify(item) });
    }
    await result.completed;
    if (lost) throw lost;
    const status = result.interruptions.length > 0 ? 'paused' : 'completed';
    const run = await store.finish(current, result.state, status);
    return { status, run, result };
  } catch (error) {
    await store.release(current).catch(() => undefined);
    throw lost ?? error;
  } finally {
    clearInterval(renewal);
  }
}

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

/**
 * Changes a paused run in a store (typically: approve or reject its pending calls), with optimistic
 * concurrency: the change is saved only if nobody changed the run since it was loaded
 * (`RunStoreError` `conflict` otherwise, leaving the stored run untouched).
 */
export async function updatePausedRun<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>>(
  store: RunStateStore,
  runId: string,
  rootAgent: TAgent,
  change: (state: RunState<TContext, TAgent>) => void | Promise<void>,
  options: LoadRunStateOptions<TContext> = {},
): Promise<StoredRun> {
  const run = await store.load(runId);
  if (!run) throw new RunStoreError('not_found', runId, `Run ${runId} does not exist.`);
  if (run.status !== 'paused') throw new RunStoreError(run.status === 'running' ? 'claimed' : 'completed', runId, `Run ${runId} is ${run.status}; only a paused run can be changed.`);
  const state = await loadRunState<TContext, TAgent>(rootAgent, run.state, options);
  await change(state);
  return store.save(runId, state, { expectedRevision: run.revision });
}

