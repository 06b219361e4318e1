import type { BenchAdapter } from '../sdks/adapter.js';
import type { PausedHeapFigures, WorkSizes } from '../protocol.js';
import { fullGc } from './gc.js';

/**
 * Heap per paused run: runs that pause on a tool with `needsApproval`, every result kept alive
 * (as a server holding pending approvals would). The live-heap growth after a full GC, divided by
 * the number of runs. Warm-up runs first, so one-time caches are not charged to the measured runs.
 */
export async function measurePausedRunHeap(adapter: BenchAdapter, sizes: WorkSizes): Promise<PausedHeapFigures> {
  const pauseOnce = adapter.pausedRun();
  const warm: unknown[] = [];
  for (let i = 0; i < sizes.pausedWarmupRuns; i++) warm.push(await pauseOnce());
  // Pre-size the holder so its own growth is not charged to the runs.
  const kept: unknown[] = new Array<unknown>(sizes.pausedRuns).fill(null);
  fullGc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < sizes.pausedRuns; i++) kept[i] = await pauseOnce();
  fullGc();
  const after = process.memoryUsage().heapUsed;
  // Touch both holders after the measurement, so no run can be collected before it.
  if (kept.includes(null) || warm.length !== sizes.pausedWarmupRuns) throw new Error('a paused run went missing');
  return { kind: 'paused-heap', bytesPerPausedRun: (after - before) / sizes.pausedRuns, runs: sizes.pausedRuns };
}
