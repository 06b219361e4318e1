import type { BenchAdapter, PausedState, PausedStateSummary } from '../sdks/adapter.js';
import { check } from '../sdks/adapter.js';
import { APPROVAL_TOOL } from '../sdks/instantScript.js';
import type { StateFigures, WorkSizes } from '../protocol.js';
import { timePerCall, warmUp } from './timing.js';

/**
 * Serializing a paused run (issue 6): for each size in `sizes.stateTurns`, one plain run of that many
 * tool-call turns that then pauses on a tool needing approval. The serialized string's size in
 * bytes (UTF-8), and the time of `state.toString()` and of `RunState.fromString(rootAgent, str)`,
 * each timed in blocks of calls after a warm-up of every size (`timing.ts`). Before timing, the state is checked to
 * hold what it claims, and a `fromString` of it to hold the same.
 */
export async function measureStateSerialization(adapter: BenchAdapter, sizes: WorkSizes): Promise<StateFigures> {
  const states: Array<{ paused: PausedState; serialized: string }> = [];
  for (const turns of sizes.stateTurns) {
    const paused = await adapter.pausedState(turns)();
    checkPaused(adapter.sdk, paused.describe(), turns, 'paused state');
    const serialized = paused.serialize();
    const restored = paused.describe(await paused.restore(serialized));
    checkPaused(adapter.sdk, restored, turns, 'state read back with fromString');
    check(
      JSON.stringify(restored) === JSON.stringify(paused.describe()),
      `${adapter.sdk} fromString gave a different state: ${JSON.stringify(restored)}, not ${JSON.stringify(paused.describe())}`,
    );
    states.push({ paused, serialized });
  }
  // Every size and both calls, so no size is timed while the code is still being optimised.
  await warmUp(async () => {
    for (const { paused, serialized } of states) {
      paused.serialize();
      await paused.restore(serialized);
    }
  }, sizes.stateTiming);
  const toStringMicros: number[] = [];
  const fromStringMicros: number[] = [];
  for (const { paused, serialized } of states) {
    toStringMicros.push(await timePerCall(() => paused.serialize(), sizes.stateTiming));
    fromStringMicros.push(await timePerCall(() => paused.restore(serialized), sizes.stateTiming));
  }
  const bytes = states.map(({ serialized }) => Buffer.byteLength(serialized, 'utf8'));
  const turns = sizes.stateTurns;
  return {
    kind: 'state',
    turns: [...turns],
    bytes,
    toStringMicros,
    fromStringMicros,
    growth: { bytes: perDoubling(turns, bytes), toString: perDoubling(turns, toStringMicros), fromString: perDoubling(turns, fromStringMicros) },
  };
}

/** The paused run really has `turns` step calls with their outputs and one pending approval. */
export function checkPaused(sdk: string, summary: PausedStateSummary, turns: number, what: string): void {
  check(
    summary.stepCalls === turns && summary.toolOutputs === turns && summary.pending.length === 1 && summary.pending[0]!.toolName === APPROVAL_TOOL,
    `${sdk} ${what} after ${turns} turns holds ${JSON.stringify(summary)}`,
  );
}

/**
 * The cost growth per doubling of the history, from the smallest to the largest size:
 * (cost at largest / cost at smallest) ^ (1 / doublings). Linear cost gives 2 (less, while a fixed
 * part still counts); quadratic gives 4.
 */
export function perDoubling(turns: readonly number[], costs: readonly number[]): number {
  const doublings = Math.log2(turns[turns.length - 1]! / turns[0]!);
  return (costs[costs.length - 1]! / costs[0]!) ** (1 / doublings);
}
