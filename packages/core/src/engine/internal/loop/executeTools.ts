import * as Clock from 'effect/Clock';
import * as Effect from 'effect/Effect';
import { RunToolApprovalItem, type FunctionCallItem } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { RunFailure } from '../failures.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { ToolRun } from './classifyResponse.js';
import type { ToolRunOutcome } from './toolRunOutcome.js';
import { executeLocalToolRun, type LocalToolRun } from './localToolRuns.js';
import type { LoopEnv } from './loopEnv.js';
import { inLanes, step } from './steps.js';
import { numberCodec } from './stepCodecs.js';
import { ToolBatchCancellation, drainOnInterrupt } from './toolCancellation.js';
import { settleBatch } from './settleBatch.js';
import { localCallNotStarted } from './localCallsNotStarted.js';
import { executeComputerCall } from './executeComputerCall.js';
import { commitAborted } from './toolCallOutputs.js';
import { executeToolRun } from './executeToolRun.js';
import type { ToolBatch } from './invokeTool.js';

export type { ToolRunOutcome };

/**
 * Runs the tool calls of one response concurrently: approval, tool input guardrails, the tool,
 * tool output guardrails. Each output is announced as soon as it exists, and the outputs enter
 * history in call order (so history does not depend on timing). The computer's calls run beside
 * them, one at a time (their actions depend on each other). A call (or the computer's category)
 * that fails the run cancels the others (their `signal` fires, the computer stops at its next step,
 * queued calls do not start) and the run fails with that first failure only once they have settled
 * (`settleBatch`). Then the shell and apply-patch calls run one at a time in response order; the
 * outputs enter history as functions, computer, shell and apply-patch. A run cancelled while its
 * function tools or computer run waits for the calls in flight, starts no other, and keeps an
 * output for each call before it ends (`ToolBatchCancellation`); the shell and apply-patch calls
 * are not started then.
 */
export function executeToolRuns(
  runs: readonly ToolRun[],
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
  localRuns: readonly LocalToolRun[] = [],
  /** The turn's handoff call: a cancelled batch answers it \`aborted\` (the handoff is not made). */
  handoffCall?: FunctionCallItem,
): Effect.Effect<ToolRunOutcome[], RunFailure> {
  const batch: ToolBatch = {
    cancellation: new ToolBatchCancellation(env.signal),
    // A call alone in its batch, in a run nothing but the caller's signal can cancel (not streamed),
    // gets that signal itself, as the reference hands it.
    directSignal: runs.length === 1 && localRuns.length === 0 && !env.streamed ? env.signal : undefined,
  };
  // With a recording step runner, the calls' steps start in call order (each call in its lane).
  const lanes = inLanes(env.stepRunner, runs.length);
  // The model is untrusted: one response may ask for any number of calls, so at most
  // `limits.maxConcurrentToolCalls` run at once (the rest start in call order as others end).
  const concurrency = Number.isFinite(env.limits.maxConcurrentToolCalls) ? env.limits.maxConcurrentToolCalls : 'unbounded';
  const computers = localRuns.length === 0 ? NO_LOCAL_RUNS : localRuns.filter((run): run is LocalToolRun & { kind: 'computer' } => run.kind === 'computer');
  // The call runner is inline, so the build's keepNames does not name a new closure on every turn.
  const functions =
    runs.length === 0
      ? Effect.succeed([] as ToolRunOutcome[])
      : runs.length === 1 && lanes === undefined
        ? // One call has no sibling to cancel or wait for: it runs in this fiber (no forked batch).
          Effect.map(executeToolRun(runs[0]!, agent, record, env, batch), (outcome) => [outcome])
        : settleBatch(runs, (run, i) => (lanes ? lanes(i, executeToolRun(run, agent, record, env, batch)) : executeToolRun(run, agent, record, env, batch)), batch.cancellation, concurrency);
  // The computer's calls run beside the function tools (neither depends on the other's effects), one
  // at a time; a failure of either category cancels the other, which settles before the run fails.
  // (What a turn without local calls does not need is not built: most turns have none.)
  const categories = computers.length === 0 ? functions : withComputerCalls(functions, runs.length, computers, agent, record, env, batch);
  const sequential = localRuns.length === 0 ? NO_LOCAL_RUNS : localRuns.filter((run) => run.kind !== 'computer');
  const drained =
    runs.length === 0 && computers.length === 0
      ? categories
      : drainOnInterrupt(batch.cancellation, categories, (outcomes) => keepCancelledBatch(runs, outcomes, sequential, handoffCall, agent, record, env));
  // Then the shell and apply-patch calls, in response order (they act on the same workspace); none starts once the turn is cancelled.
  const outcomes =
    sequential.length === 0
      ? drained
      : Effect.zipWith(
          drained,
          Effect.forEach(sequential, (run) =>
            Effect.suspend(() => (batch.cancellation.cancelled ? localCallNotStarted(run, agent, env) : executeLocalToolRun(run, agent, record, env))),
          ),
          (a, b) => [...a, ...b],
        );
  const all = Effect.map(outcomes, (settled) => {
    for (const outcome of settled) {
      if (outcome.type === 'nested_interruption') continue;
      record.generatedItems.push(outcome.item);
      if (outcome.type === 'output' && outcome.followUp) record.generatedItems.push(outcome.followUp);
    }
    return settled;
  });
  return withReplayableApprovalClock(all, record, env);
}

const NO_LOCAL_RUNS: readonly never[] = [];

/** The computer's calls, one at a time, beside the function tools' (`functions`, when there are some). */
function withComputerCalls(
  functions: Effect.Effect<ToolRunOutcome[], RunFailure>,
  functionCalls: number,
  computers: ReadonlyArray<LocalToolRun & { kind: 'computer' }>,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
  batch: ToolBatch,
): Effect.Effect<ToolRunOutcome[], RunFailure> {
  const computerCalls = Effect.forEach(computers, (run) => executeComputerCall(run.call, run.tool, agent, record, env, batch.cancellation));
  if (functionCalls === 0) return computerCalls;
  return settleBatch([functions, computerCalls], (category) => category, batch.cancellation, 2).pipe(Effect.map(([a, b]) => [...a!, ...b!]));
}

/**
 * A cancelled batch, drained: each call's output enters history in call order (a call that ended
 * without one gets an incomplete `aborted` one), then the computer's, then an `aborted` output for
 * each shell and apply-patch call (never started), then for the turn's handoff call (the handoff is
 * not made; without an answer, the next request would hold a call the API refuses to go on from).
 * A call that was waiting for approval stays pending: the run, resumed, asks for the decision;
 * without one it asks the model again.
 */
function keepCancelledBatch(
  runs: readonly ToolRun[],
  outcomes: readonly ToolRunOutcome[],
  notStarted: readonly LocalToolRun[],
  handoffCall: FunctionCallItem | undefined,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<void> {
  return Effect.gen(function* () {
    const interruptions: RunToolApprovalItem[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.type === 'output') {
        record.generatedItems.push(outcome.item);
        if (outcome.followUp) record.generatedItems.push(outcome.followUp);
      } else if (outcome.type === 'approval') {
        record.generatedItems.push(outcome.item);
        interruptions.push(outcome.item);
      } else if (i < runs.length) {
        const aborted = yield* commitAborted(runs[i]!.call, runs[i]!.tool, agent, env);
        record.generatedItems.push(aborted.item);
      }
    }
    for (const run of notStarted) {
      const aborted = yield* localCallNotStarted(run, agent, env);
      if (aborted.type === 'output') record.generatedItems.push(aborted.item);
    }
    if (handoffCall !== undefined) record.generatedItems.push((yield* commitAborted(handoffCall, undefined, agent, env)).item);
    record.currentStep = interruptions.length > 0 ? { type: 'next_step_interruption', interruptions } : { type: 'next_step_run_again' };
    record.turnInProgress = false;
  });
}

/**
 * Whether an approval expired depends on the time. With a recording step runner, this turn's
 * approval checks read one recorded time (a `time` step), so a replay decides them as the first run did.
 */
function withReplayableApprovalClock<A, E>(effect: Effect.Effect<A, E>, record: RunRecord, env: LoopEnv): Effect.Effect<A, E> {
  if (env.stepRunner === undefined || Object.keys(record.context.getApprovalRequests()).length === 0) return effect;
  const now = step(env.stepRunner, 'time', () => `t${record.currentTurn}:approvals:time`, numberCodec, Clock.currentTimeMillis);
  return Effect.flatMap(now, (millis) =>
    Effect.acquireUseRelease(
      Effect.sync(() => record.context.useClock({ currentTimeMillisUnsafe: () => millis })),
      () => effect,
      () => Clock.Clock.pipe(Effect.map((clock) => record.context.useClock(clock))),
    ),
  );
}
