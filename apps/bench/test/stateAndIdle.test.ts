import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BenchAdapter } from '../src/sdks/adapter.js';
import { adapter as baton } from '../src/sdks/baton.js';
import { adapter as reference } from '../src/sdks/reference.js';
import { FloodProbe, IDLE_BUFFER_SIZE } from '../src/sdks/idleScript.js';
import { APPROVAL_TOOL } from '../src/sdks/instantScript.js';
import { checkPaused, measureStateSerialization } from '../src/scenarios/stateSerialization.js';
import { measureIdleConsumer } from '../src/scenarios/idleConsumer.js';
import type { WorkSizes } from '../src/protocol.js';

// The issue-6 and issue-7 scenarios do the work they claim. Nothing here is timed: only counts,
// and what states and streams hold.

// The idle-consumer scenario forces full GCs; the bench children get `--expose-gc`, the test worker this.
beforeAll(() => {
  const global = globalThis as { gc?: () => void };
  if (typeof global.gc !== 'function') {
    setFlagsFromString('--expose-gc');
    global.gc = runInNewContext('gc') as () => void;
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await sleep(5);
  }
}

/** Small sizes for the scenario functions: every call once, no warm-up to speak of. */
const SMALL: Pick<WorkSizes, 'stateTurns' | 'stateTiming' | 'idleDeltas' | 'idleMs'> = {
  stateTurns: [2, 4, 8],
  stateTiming: { warmupMs: 0, warmupCycles: 1, blocks: 1, blockMs: 0 },
  idleDeltas: 5_000,
  idleMs: 300,
};
const sizes = SMALL as WorkSizes;

describe.each<[string, BenchAdapter]>([
  ['baton', baton],
  ['reference', reference],
])('%s adapter', (name, adapter) => {
  it('pauses after 20 tool-call turns, each with its output, on the tool that needs approval', async () => {
    const paused = await adapter.pausedState(20)();
    const summary = paused.describe();
    expect(summary).toMatchObject({ currentTurn: 21, stepCalls: 20, toolOutputs: 20 });
    expect(summary.pending).toHaveLength(1);
    expect(summary.pending[0]!.toolName).toBe(APPROVAL_TOOL);
    expect(() => checkPaused(name, summary, 20, 'state')).not.toThrow();
    expect(() => checkPaused(name, summary, 19, 'state')).toThrow(/bench sanity check failed/);
  });

  it('fromString reads back the same paused run, and reading what it writes again gives it once more', async () => {
    const paused = await adapter.pausedState(20)();
    const serialized = paused.serialize();
    expect(serialized.length).toBeGreaterThan(1000);
    const restored = await paused.restore(serialized);
    expect(paused.describe(restored)).toEqual(paused.describe());
    const again = paused.serialize(restored);
    expect(paused.describe(await paused.restore(again))).toEqual(paused.describe());
    if (name === 'baton') expect(again).toBe(serialized); // Baton's rewrite is idempotent
  });

  it('the state scenario reports every size, growing with the history', async () => {
    const figures = await measureStateSerialization(adapter, sizes);
    expect(figures.turns).toEqual([2, 4, 8]);
    expect(figures.bytes[0]).toBeLessThan(figures.bytes[1]!);
    expect(figures.bytes[1]).toBeLessThan(figures.bytes[2]!);
    for (const micros of [...figures.toStringMicros, ...figures.fromStringMicros]) expect(micros).toBeGreaterThan(0);
    expect(figures.growth.bytes).toBeGreaterThan(1);
  });

  it('an idle stream is not read until drained, and then delivers every delta', async () => {
    const probe = new FloodProbe(5_000);
    const idle = await adapter.idleStream(probe);
    if (name === 'baton') {
      // Nobody reads, so the run stops at the buffer and stays there.
      await until(() => probe.produced > 0);
      await sleep(150);
      const stalled = probe.produced;
      await sleep(150);
      expect(probe.produced).toBe(stalled);
      expect(stalled).toBeLessThanOrEqual(IDLE_BUFFER_SIZE);
      expect(probe.finished).toBe(false);
    } else {
      // The reference queues without bound: its model finishes with nothing read.
      await until(() => probe.finished);
      expect(probe.produced).toBe(5_000);
    }
    await expect(idle.drain()).resolves.toBe(5_000);
    expect(probe.finished).toBe(true);
  });

  it('the idle-consumer scenario leaves the stream unread for the idle time, then drains it', async () => {
    const figures = await measureIdleConsumer(adapter, sizes);
    expect(figures).toMatchObject({ kind: 'idle', deltas: 5_000 });
    expect(figures.idleMs).toBeGreaterThanOrEqual(SMALL.idleMs - 1);
    if (name === 'baton') expect(figures.producedWhileIdle).toBeLessThanOrEqual(IDLE_BUFFER_SIZE);
    else expect(figures.producedWhileIdle).toBeGreaterThan(IDLE_BUFFER_SIZE);
    expect(figures.peakHeapBytes).toBeGreaterThanOrEqual(figures.heldHeapBytes);
  });
});
