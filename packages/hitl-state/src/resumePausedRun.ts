import { Runner, type Agent, type RunState, type StreamRunOptions, type StreamedRunResult } from '@baton/core';
import { loadRunState, type LoadRunStateOptions } from './identity.js';
import { withCommittedOutputs } from './legacyToolOutputs.js';
import { storeStepRunner } from './storeStepRunner.js';
import { RunStoreError, requireLease, type RunStateStore, type StoredRun } from './store/runStateStore.js';

export interface ResumePausedRunOptions<TContext> extends LoadRunStateOptions<TContext> {
  /** Who resumes (recorded with the claim). */
  workerId: string;
  /** How long the claim holds without renewal; it is renewed every third of it while the run goes on. Default 5 minutes. */
  leaseMs?: number;
  /** The runner to resume with (default: a new `Runner()`). */
  runner?: Runner;
  /**
   * Options for the resumed run (streamed; the stream is drained here). A `stepRunner` given here
   * or on the runner runs the steps that have no committed result.
   */
  runOptions?: Omit<StreamRunOptions<TContext>, 'stream' | 'context'>;
}

export type ResumePausedRunOutcome<TContext, TAgent extends Agent<any, any>> =
  /** Another worker holds the run, or it is completed or unknown: nothing was resumed. */
  | { status: 'not_claimed'; run: StoredRun | undefined }
  /** Resumed; it paused again for new approvals (`result.interruptions`) or completed. */
  | { status: 'paused' | 'completed'; run: StoredRun; result: StreamedRunResult<TContext, TAgent> };

/**
 * Resumes a paused run from a store: claims it (a racing worker gets `not_claimed`), rebuilds the
 * state against `rootAgent`, resumes it, and stores the outcome. Every step of the resumed run
 * (model calls, tool calls in every turn, guardrails, handoffs, the run id) commits its result to
 * the store's journal as soon as it exists; if the resume fails or the worker dies, the next worker
 * replays the committed steps instead of running them again. The step in flight at a crash (a tool
 * that ran but whose result was not committed yet) runs again: tools with outside effects should
 * deduplicate on `details.runId` + `details.toolCall.callId`. On failure the run is released with
 * its state untouched and its journal kept.
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
    const [legacyOutputs, steps] = await Promise.all([store.committedToolOutputs(runId), store.committedSteps(runId)]);
    const { text } = withCommittedOutputs(runId, claim.state, legacyOutputs);
    const state: RunState<TContext, TAgent> = await loadRunState<TContext, TAgent>(rootAgent, text, options);
    const runner = options.runner ?? new Runner();
    const stepRunner = storeStepRunner(store, claim, steps, options.runOptions?.stepRunner ?? runner.config.stepRunner);
    result = await runner.run(rootAgent, state, { ...options.runOptions, stepRunner, stream: true });
    for await (const _event of result);
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

