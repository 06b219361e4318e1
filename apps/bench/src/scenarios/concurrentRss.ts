import type { BenchAdapter } from '../sdks/adapter.js';
import type { ConcurrentRssFigures, WorkSizes } from '../protocol.js';

/** The tool turns of each run: with the final answer, three model turns. */
export const CONCURRENT_TOOL_TURNS = 2;

/**
 * Peak resident memory of many runs at once: `sizes.concurrentRuns` plain 3-turn runs started
 * together, all awaited; each model answer arrives on a later turn of the event loop, as a
 * response from the network would, so the runs are all in flight together. Runs in a child of its own (peak RSS is per process), after one warm-up
 * run and with the agents made; RSS is sampled every few milliseconds, and the kernel's own peak (`maxRSS`) is read at the end.
 */
export async function measureConcurrentRss(adapter: BenchAdapter, sizes: WorkSizes): Promise<ConcurrentRssFigures> {
  await adapter.toolLoop(CONCURRENT_TOOL_TURNS, false, true)();
  // One agent per run (each adapter run checks its own tool count), made before the baseline.
  const runs = Array.from({ length: sizes.concurrentRuns }, () => adapter.toolLoop(CONCURRENT_TOOL_TURNS, false, true));
  const baselineRssBytes = process.memoryUsage.rss();
  let sampledPeak = baselineRssBytes;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  }, 2);
  try {
    await Promise.all(runs.map((runOnce) => runOnce()));
  } finally {
    clearInterval(sampler);
  }
  sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  // maxRSS is in kilobytes, over the process's whole life (loading the SDK included).
  const peakRssBytes = Math.max(sampledPeak, process.resourceUsage().maxRSS * 1024);
  return { kind: 'concurrent-rss', peakRssBytes, baselineRssBytes, runs: sizes.concurrentRuns, turnsPerRun: CONCURRENT_TOOL_TURNS + 1 };
}
