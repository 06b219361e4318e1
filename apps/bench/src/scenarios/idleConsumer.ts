import { getHeapStatistics } from 'node:v8';
import type { BenchAdapter } from '../sdks/adapter.js';
import { check } from '../sdks/adapter.js';
import { FloodProbe } from '../sdks/idleScript.js';
import type { IdleFigures, WorkSizes } from '../protocol.js';
import { fullGc } from './gc.js';

/** A small run first, so loading and compiling the streaming code is not charged to the measured run. */
const WARMUP_DELTAS = 2_000;

/**
 * A consumer that reads nothing for a while (issue 7): a streamed run whose model yields
 * `sizes.idleDeltas` text deltas as fast as the SDK takes them; nobody reads its events for
 * `sizes.idleMs`. Measured against the live heap after a full GC just before the run starts:
 * the peak heap while unread (sampled by the model at every chunk and by a 10 ms timer), the heap
 * still held after a full GC at the end of the idle time, and how many deltas the model had
 * produced by then. Then every event is read, and all deltas must arrive.
 */
export async function measureIdleConsumer(adapter: BenchAdapter, sizes: WorkSizes): Promise<IdleFigures> {
  const warm = await idleRun(adapter, new FloodProbe(WARMUP_DELTAS), 20);
  const warmReceived = await warm.drain();
  check(warmReceived === WARMUP_DELTAS, `${adapter.sdk} delivered ${warmReceived} of ${WARMUP_DELTAS} deltas in the warm-up run`);
  const probe = new FloodProbe(sizes.idleDeltas);
  fullGc();
  const baseline = usedHeap();
  const { producedWhileIdle, idleMs, drain } = await idleRun(adapter, probe, sizes.idleMs);
  const peak = probe.peakHeap;
  fullGc();
  const held = usedHeap();
  const received = await drain();
  check(received === sizes.idleDeltas, `${adapter.sdk} delivered ${received} of ${sizes.idleDeltas} deltas after the idle time`);
  return {
    kind: 'idle',
    deltas: sizes.idleDeltas,
    idleMs,
    producedWhileIdle,
    peakHeapBytes: Math.max(0, peak - baseline),
    heldHeapBytes: Math.max(0, held - baseline),
  };
}

async function idleRun(adapter: BenchAdapter, probe: FloodProbe, idleMs: number) {
  const start = performance.now();
  const run = await adapter.idleStream(probe);
  probe.sampleHeap();
  const sampler = setInterval(() => probe.sampleHeap(), 10);
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  clearInterval(sampler);
  probe.sampleHeap();
  // The timer can fire late if the SDK keeps the event loop busy: report the idle time as it was.
  return { producedWhileIdle: probe.produced, idleMs: performance.now() - start, drain: () => run.drain() };
}

function usedHeap(): number {
  return getHeapStatistics().used_heap_size;
}
