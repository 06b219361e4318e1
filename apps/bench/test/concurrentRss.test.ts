import { describe, expect, it } from 'vitest';
import { measureConcurrentRss } from '../src/scenarios/concurrentRss.js';
import { adapter as baton } from '../src/sdks/baton.js';
import { adapter as reference } from '../src/sdks/reference.js';
import type { WorkSizes } from '../src/protocol.js';

// The peak-RSS scenario, small, on both SDKs: every run must finish (the adapter checks each run's
// outcome), and the figures must have the shape the report reads. No memory threshold is asserted.
const sizes = { concurrentRuns: 20 } as WorkSizes;

describe.each([
  ['baton', baton],
  ['reference', reference],
])('concurrent-rss on %s', (_name, adapter) => {
  it('runs every run to its end and reports peak and baseline RSS', async () => {
    const figures = await measureConcurrentRss(adapter, sizes);
    expect(figures).toMatchObject({ kind: 'concurrent-rss', runs: 20, turnsPerRun: 3 });
    expect(figures.baselineRssBytes).toBeGreaterThan(0);
    expect(figures.peakRssBytes).toBeGreaterThanOrEqual(figures.baselineRssBytes);
  });
});
