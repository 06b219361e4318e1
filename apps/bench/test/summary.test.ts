import { describe, expect, it } from 'vitest';
import type { ChildReport, GuardrailFigures, ScenarioFigures } from '../src/protocol.js';
import { aboutMicros } from '../src/report/metrics.js';
import { signalNote } from '../src/report/signals.js';
import { summarize } from '../src/report/summary.js';
import { spreadOf } from '../src/report/stats.js';
import { formatTable } from '../src/report/table.js';

interface GuardrailSample {
  tripMs: number;
  aborted: number;
  parallelMs: number;
  blockingMs: number;
}

const GOOD_GUARDRAILS: GuardrailSample = { tripMs: 21, aborted: 5, parallelMs: 101, blockingMs: 182 };
const REF_GUARDRAILS: GuardrailSample = { tripMs: 301, aborted: 0, parallelMs: 101, blockingMs: 182 };

function guardrail(wallMs: number, abortedRuns = 0, signalRuns = abortedRuns): GuardrailFigures {
  return { kind: 'guardrail', wallMicros: wallMs * 1000, modelMicros: wallMs * 1000, runs: 5, signalRuns, abortedRuns };
}

function report(sdk: ChildReport['sdk'], cpu: number, rate: number, bytes: number, g: GuardrailSample = sdk === 'baton' ? GOOD_GUARDRAILS : REF_GUARDRAILS): ChildReport {
  const turns: ScenarioFigures = { kind: 'turns', cpuMicrosPerTurn: cpu, wallMicrosPerTurn: cpu, runs: 1, turnsPerRun: 11 };
  return {
    sdk,
    results: [
      { scenario: 'turns-plain', figures: turns },
      { scenario: 'turns-streamed', figures: turns },
      { scenario: 'delivery', figures: { kind: 'delivery', deltasPerSecond: rate, cpuMicrosPerDelta: 1, runs: 1, deltasPerRun: 1 } },
      { scenario: 'paused-heap', figures: { kind: 'paused-heap', bytesPerPausedRun: bytes, runs: 1 } },
      { scenario: 'guardrail-trip', figures: guardrail(g.tripMs, g.aborted) },
      { scenario: 'guardrail-parallel', figures: guardrail(g.parallelMs) },
      { scenario: 'guardrail-blocking', figures: guardrail(g.blockingMs) },
    ],
  };
}

function byId(reports: ChildReport[]) {
  return Object.fromEntries(summarize(reports).map((row) => [row.id, row]));
}

describe('summarize', () => {
  it('takes medians over rounds and judges each target in its own direction', () => {
    const rows = byId([
      report('baton', 100, 300, 4000),
      report('reference', 500, 100, 15000),
      report('baton', 900, 100, 4000),
      report('reference', 500, 100, 15000),
      report('baton', 200, 300, 4000),
      report('reference', 500, 100, 15000),
    ]);
    expect(rows['turns-plain.cpu']).toMatchObject({ ratio: 0.4, met: true, target: '<= 0.5x' });
    expect(rows['turns-plain.wall']?.met).toBeUndefined();
    expect(rows['delivery.rate']).toMatchObject({ ratio: 3, met: true, target: '>= 2x' });
    expect(rows['paused-heap.bytes']?.met).toBe(true);
    expect(summarize([report('baton', 300, 150, 9000), report('reference', 500, 100, 15000)]).filter((r) => r.met === false)).toHaveLength(4);
  });

  it('medians of even sample counts average the middle pair', () => {
    expect(spreadOf([4, 1, 3, 2])).toMatchObject({ median: 2.5, min: 1, max: 4 });
  });
});

describe('guardrail rows', () => {
  it('targets: tripwire within 0.25x of the reference and about the guardrail time; passes about the ideal wall time', () => {
    expect(aboutMicros(20)).toBe(25_000);
    expect(aboutMicros(100)).toBe(110_000);
    expect(aboutMicros(180)).toBe(198_000);
    const rows = byId([report('baton', 100, 300, 4000), report('reference', 500, 100, 15000)]);
    expect(rows['guardrail-trip.wall']).toMatchObject({ target: '<= 0.25x, <= 25 ms', met: true });
    expect(rows['guardrail-trip.wall']!.ratio).toBeCloseTo(21 / 301);
    expect(rows['guardrail-trip.model']?.met).toBeUndefined();
    expect(rows['guardrail-trip.aborted']).toMatchObject({ target: 'all runs', met: true });
    expect(rows['guardrail-trip.aborted']!.ratio).toBeUndefined();
    expect(rows['guardrail-parallel.wall']).toMatchObject({ target: '<= 110 ms', met: true });
    expect(rows['guardrail-blocking.wall']).toMatchObject({ target: '<= 198 ms', met: true });
  });

  it('misses when Baton waits for the model, does not abort it, or serialises a parallel guardrail', () => {
    const slow = { tripMs: 60, aborted: 4, parallelMs: 181, blockingMs: 260 };
    const rows = byId([report('baton', 100, 300, 4000, slow), report('reference', 500, 100, 15000)]);
    expect(rows['guardrail-trip.wall']).toMatchObject({ met: false }); // 60 ms: under 0.25x of 301 ms, but not about 20 ms
    expect(rows['guardrail-trip.aborted']).toMatchObject({ met: false });
    expect(rows['guardrail-parallel.wall']).toMatchObject({ met: false });
    expect(rows['guardrail-blocking.wall']).toMatchObject({ met: false });
  });

  it('the table shows shares, no ratio for them, and a note on the signals', () => {
    const reports = [report('baton', 100, 300, 4000), report('reference', 500, 100, 15000)];
    const table = formatTable(summarize(reports));
    const aborted = table.split('\n').find((line) => line.includes('model request aborted'))!;
    expect(aborted).toMatch(/100% of runs\s+0% of runs\s+-\s+higher\s+all runs\s+met/);
    expect(table).toMatch(/time to reject\s+21\.00 ms\s+301\.00 ms\s+0\.07x/);
    expect(signalNote(reports)).toBe(
      'Guardrail tripwire runs, all rounds: Baton passed request.signal to the model in 5/5 runs and it fired in 5/5; ' +
        'reference passed request.signal to the model in 0/5 runs and it fired in 0/5.',
    );
  });
});
