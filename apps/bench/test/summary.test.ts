import { describe, expect, it } from 'vitest';
import type { ChildReport, ScenarioFigures } from '../src/protocol.js';
import { summarize } from '../src/report/summary.js';
import { spreadOf } from '../src/report/stats.js';

function report(sdk: ChildReport['sdk'], cpu: number, rate: number, bytes: number): ChildReport {
  const turns: ScenarioFigures = { kind: 'turns', cpuMicrosPerTurn: cpu, wallMicrosPerTurn: cpu, runs: 1, turnsPerRun: 11 };
  return {
    sdk,
    results: [
      { scenario: 'turns-plain', figures: turns },
      { scenario: 'turns-streamed', figures: turns },
      { scenario: 'delivery', figures: { kind: 'delivery', deltasPerSecond: rate, cpuMicrosPerDelta: 1, runs: 1, deltasPerRun: 1 } },
      { scenario: 'paused-heap', figures: { kind: 'paused-heap', bytesPerPausedRun: bytes, runs: 1 } },
    ],
  };
}

describe('summarize', () => {
  it('takes medians over rounds and judges each target in its own direction', () => {
    const rows = summarize([
      report('baton', 100, 300, 4000),
      report('reference', 500, 100, 15000),
      report('baton', 900, 100, 4000),
      report('reference', 500, 100, 15000),
      report('baton', 200, 300, 4000),
      report('reference', 500, 100, 15000),
    ]);
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId['turns-plain.cpu']).toMatchObject({ ratio: 0.4, met: true, target: '<= 0.5' });
    expect(byId['turns-plain.wall']?.met).toBeUndefined();
    expect(byId['delivery.rate']).toMatchObject({ ratio: 3, met: true, target: '>= 2' });
    expect(byId['paused-heap.bytes']?.met).toBe(true);
    expect(summarize([report('baton', 300, 150, 9000), report('reference', 500, 100, 15000)]).filter((r) => r.met === false)).toHaveLength(4);
  });

  it('medians of even sample counts average the middle pair', () => {
    expect(spreadOf([4, 1, 3, 2])).toMatchObject({ median: 2.5, min: 1, max: 4 });
  });
});
