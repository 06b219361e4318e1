import type { BenchAdapter } from '../sdks/adapter.js';
import type { ConcurrentRssFigures, WorkSizes } from '../protocol.js';

/** The tool turns of each run: with the final answer, three model turns. */
export const CONCURRENT_TOOL_TURNS = 2;

/**
 * Peak resident memory of many runs at once: `sizes.concurrentRuns` plain 3-turn runs of one agent
 * (as a server runs one agent for many users), started together and all awaited. Each model answer
 * arrives on a later turn of the event loop, as a response from the network would, so the runs are
 * in flight together. Runs in a child of its own (peak RSS is per process), after one warm-up run;
 * RSS is sampled every 2 ms, and the kernel's own peak (`maxRSS`) is read at the end.
 */
export async function measureConcurrentRss(adapter: BenchAdapter, sizes: WorkSizes): Promise<ConcurrentRssFigures> {
  await adapter.concurrentRuns(1, CONCURRENT_TOOL_TURNS)();
  const runAll = adapter.concurrentRuns(sizes.concurrentRuns, CONCURRENT_TOOL_TURNS);
  const baselineRssBytes = process.memoryUsage.rss();
  let sampledPeak = baselineRssBytes;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  }, 2);
  try {
    await runAll();
  } finally {
    clearInterval(sampler);
  }
  sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  // maxRSS is in kilobytes, over the process's whole life (loading the SDK included).
  const peakRssBytes = Math.max(sampledPeak, process.resourceUsage().maxRSS * 1024);
  return { kind: 'concurrent-rss', peakRssBytes, baselineRssBytes, runs: sizes.concurrentRuns, turnsPerRun: CONCURRENT_TOOL_TURNS + 1 };
}
