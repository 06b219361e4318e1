import { cpuMicros } from './gc.js';

export interface BlockCost {
  cpuMicros: number;
  wallMicros: number;
}

/**
 * Runs `work` in `blocks` timed blocks of `perBlock` iterations each and returns the block whose
 * wall time is the median. A burst of outside load spoils one block, not the figure.
 *
 * No forced GC before timing: `global.gc()` throws away V8's optimised code and type feedback, and
 * the next ~100 runs then cost several times the steady state.
 */
export async function medianBlock(blocks: number, perBlock: number, work: () => Promise<void>): Promise<BlockCost> {
  const costs: BlockCost[] = [];
  for (let block = 0; block < blocks; block++) {
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    for (let i = 0; i < perBlock; i++) await work();
    costs.push({ wallMicros: (performance.now() - wallStart) * 1000, cpuMicros: cpuMicros(cpuStart) });
  }
  costs.sort((a, b) => a.wallMicros - b.wallMicros);
  return costs[Math.floor(costs.length / 2)]!;
}
