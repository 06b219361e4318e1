import type { BenchAdapter } from '../sdks/adapter.js';
import type { TurnOverheadFigures, WorkSizes } from '../protocol.js';
import { medianBlock } from './blocks.js';

/**
 * Framework overhead per turn: runs of `toolTurns` turns with one tool call each, then a final
 * message, against a model that answers instantly, one run after another. Everything the process
 * spends is the SDK's (the model and the tool do next to nothing), so CPU per turn is overhead.
 */
export async function measureTurnOverhead(adapter: BenchAdapter, sizes: WorkSizes, streamed: boolean): Promise<TurnOverheadFigures> {
  return measureRuns(adapter.toolLoop(sizes.toolTurns, streamed), sizes);
}

/** Runs of `toolTurns` turns that each call two of eight realistic tools at once, then a final message. */
export async function measureToolsetOverhead(adapter: BenchAdapter, sizes: WorkSizes, streamed: boolean): Promise<TurnOverheadFigures> {
  return measureRuns(adapter.toolsetLoop(sizes.toolTurns, streamed), sizes);
}

/** The same runs with tracing on: what recording (and exporting) the spans adds per turn. */
export async function measureTracedTurnOverhead(adapter: BenchAdapter, sizes: WorkSizes, sink: 'memory' | 'otlp'): Promise<TurnOverheadFigures> {
  const loop = await adapter.tracedToolLoop(sizes.toolTurns, sink);
  try {
    return await measureRuns(() => loop.run(), sizes);
  } finally {
    await loop.close();
  }
}

async function measureRuns(runOnce: () => Promise<void>, sizes: WorkSizes): Promise<TurnOverheadFigures> {
  for (let i = 0; i < sizes.overheadWarmupRuns; i++) await runOnce();
  const perBlock = Math.max(1, Math.round(sizes.overheadRuns / sizes.blocks));
  const cost = await medianBlock(sizes.blocks, perBlock, runOnce);
  const turnsPerRun = sizes.toolTurns + 1;
  const turns = perBlock * turnsPerRun;
  return {
    kind: 'turns',
    cpuMicrosPerTurn: cost.cpuMicros / turns,
    wallMicrosPerTurn: cost.wallMicros / turns,
    runs: perBlock * sizes.blocks,
    turnsPerRun,
  };
}
