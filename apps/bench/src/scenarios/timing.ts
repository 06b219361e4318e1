/** How the serialization calls are timed: a shared warm-up, then timed blocks of repetitions. */
export interface OpTiming {
  /** The warm-up lasts at least this long and at least `warmupCycles` cycles. */
  warmupMs: number;
  warmupCycles: number;
  /** Timed blocks per call; each repeats the call enough times to last about `blockMs` (at least once). */
  blocks: number;
  blockMs: number;
}

/**
 * Runs `cycle` (which should exercise every call about to be timed, at every size) until both warm-up
 * bounds are reached, so V8 has optimised the SDK's code before any of it is timed.
 */
export async function warmUp(cycle: () => Promise<void>, timing: OpTiming): Promise<void> {
  const start = performance.now();
  for (let cycles = 0; cycles < timing.warmupCycles || performance.now() - start < timing.warmupMs; cycles++) await cycle();
}

/**
 * Times `op` (sync or async, already warmed up) and returns the median over blocks of its wall time
 * per call, in microseconds. No forced GC: collecting what the calls allocate is part of their cost
 * (and `global.gc()` would throw away the optimised code).
 */
export async function timePerCall(op: () => unknown, timing: OpTiming): Promise<number> {
  const probeStart = performance.now();
  await awaitIfPromise(op());
  const probeMs = performance.now() - probeStart;
  const reps = Math.max(1, Math.round(timing.blockMs / Math.max(probeMs, 1e-3)));
  const perCall: number[] = [];
  for (let block = 0; block < timing.blocks; block++) {
    const start = performance.now();
    for (let i = 0; i < reps; i++) await awaitIfPromise(op());
    perCall.push(((performance.now() - start) * 1000) / reps);
  }
  perCall.sort((a, b) => a - b);
  return perCall[Math.floor(perCall.length / 2)]!;
}

function awaitIfPromise(value: unknown): unknown {
  return value instanceof Promise ? value : undefined;
}
