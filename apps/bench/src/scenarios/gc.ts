/** A full garbage collection; the children run with `--expose-gc`. */
export function fullGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') throw new Error('run the benchmark child with node --expose-gc');
  // Twice: the first pass can leave objects that only die once their finalizers ran.
  gc();
  gc();
}

export function cpuMicros(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}
