import type { BenchAdapter } from '../sdks/adapter.js';
import { check } from '../sdks/adapter.js';
import type { DeliveryFigures, WorkSizes } from '../protocol.js';
import { medianBlock } from './blocks.js';

/**
 * Text-delta delivery rate: one streamed response of `deltas` output_text_delta events, consumed
 * through the run's event stream. Each response is timed from the run call until the run has
 * completed; the figure is the median response.
 */
export async function measureTextDelivery(adapter: BenchAdapter, sizes: WorkSizes): Promise<DeliveryFigures> {
  const streamOnce = adapter.textStream(sizes.deltas);
  const checkedStream = async () => {
    const got = await streamOnce();
    check(got === sizes.deltas, `${adapter.sdk} delivered ${got} of ${sizes.deltas} deltas`);
  };
  for (let i = 0; i < sizes.deliveryWarmupRuns; i++) await checkedStream();
  const cost = await medianBlock(sizes.deliveryRuns, 1, checkedStream);
  return {
    kind: 'delivery',
    deltasPerSecond: sizes.deltas / (cost.wallMicros / 1e6),
    cpuMicrosPerDelta: cost.cpuMicros / sizes.deltas,
    runs: sizes.deliveryRuns,
    deltasPerRun: sizes.deltas,
  };
}
