import { describe, expect, it } from 'vitest';
import type { ChildReport, GuardrailFigures, IdleFigures, ScenarioFigures, StateFigures } from '../src/protocol.js';
import { aboutMicros } from '../src/report/metrics.js';
import { idleNote, stateNote } from '../src/report/notes.js';
import { signalNote } from '../src/report/signals.js';
import { perDoubling } from '../src/scenarios/stateSerialization.js';
import { summarize } from '../src/report/summary.js';
import { spreadOf } from '../src/report/stats.js';
import { formatRatio, formatTable } from '../src/report/table.js';

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

const TURNS = [10, 20, 40, 80];

/** A state scenario's figures whose costs grow by `growth` per doubling from the 10-turn ones. */
function state(bytes10: number, toString10: number, fromString10: number, growth: number): StateFigures {
  const grow = (first: number) => TURNS.map((_, i) => first * growth ** i);
  const figures = { kind: 'state' as const, turns: TURNS, bytes: grow(bytes10), toStringMicros: grow(toString10), fromStringMicros: grow(fromString10) };
  return {
    ...figures,
    growth: { bytes: perDoubling(TURNS, figures.bytes), toString: perDoubling(TURNS, figures.toStringMicros), fromString: perDoubling(TURNS, figures.fromStringMicros) },
  };
}

function idle(producedWhileIdle: number, peakHeapBytes: number, heldHeapBytes: number): IdleFigures {
  return { kind: 'idle', deltas: 200_000, idleMs: 1000, producedWhileIdle, peakHeapBytes, heldHeapBytes };
}

const GOOD_STATE = state(7_000, 60, 150, 2);
const REF_STATE = state(17_000, 3_000, 3_000, 3);
const GOOD_IDLE = idle(256, 500_000, 0);
const REF_IDLE = idle(150_000, 30_000_000, 15_000_000);

function report(
  sdk: ChildReport['sdk'],
  cpu: number,
  rate: number,
  bytes: number,
  g: GuardrailSample = sdk === 'baton' ? GOOD_GUARDRAILS : REF_GUARDRAILS,
  st: StateFigures = sdk === 'baton' ? GOOD_STATE : REF_STATE,
  id: IdleFigures = sdk === 'baton' ? GOOD_IDLE : REF_IDLE,
): ChildReport {
  const turns: ScenarioFigures = { kind: 'turns', cpuMicrosPerTurn: cpu, wallMicrosPerTurn: cpu, runs: 1, turnsPerRun: 11 };
  return {
    sdk,
    results: [
      { scenario: 'turns-plain', figures: turns },
      { scenario: 'turns-streamed', figures: turns },
      { scenario: 'turns-toolset', figures: turns },
      { scenario: 'turns-toolset-streamed', figures: turns },
      { scenario: 'turns-traced', figures: turns },
      { scenario: 'turns-otlp', figures: turns },
      { scenario: 'delivery', figures: { kind: 'delivery', deltasPerSecond: rate, cpuMicrosPerDelta: 1, runs: 1, deltasPerRun: 1 } },
      { scenario: 'paused-heap', figures: { kind: 'paused-heap', bytesPerPausedRun: bytes, runs: 1 } },
      { scenario: 'state-serialization', figures: st },
      { scenario: 'idle-consumer', figures: id },
      { scenario: 'concurrent-rss', figures: { kind: 'concurrent-rss', peakRssBytes: bytes * 100, baselineRssBytes: bytes * 50, runs: 1, turnsPerRun: 3 } },
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
      report('baton', 40, 1100, 2000),
      report('reference', 500, 100, 15000),
      report('baton', 900, 100, 2000),
      report('reference', 500, 100, 15000),
      report('baton', 45, 1100, 2000),
      report('reference', 500, 100, 15000),
    ]);
    // Issue 31's targets: CPU per turn <= 0.1x (tracing rows 0.5x), delivery >= 10x, paused heap <= 0.15x.
    expect(rows['turns-plain.cpu']).toMatchObject({ ratio: 0.09, met: true, target: '<= 0.1x' });
    expect(rows['turns-plain.wall']?.met).toBeUndefined();
    expect(rows['turns-toolset.cpu']).toMatchObject({ ratio: 0.09, met: true, target: '<= 0.1x' });
    expect(rows['turns-toolset-streamed.cpu']).toMatchObject({ ratio: 0.09, met: true, target: '<= 0.1x' });
    expect(rows['turns-traced.cpu']).toMatchObject({ ratio: 0.09, met: true, target: '<= 0.5x' });
    expect(rows['turns-otlp.cpu']).toMatchObject({ ratio: 0.09, met: true, target: '<= 0.5x' });
    expect(rows['delivery.rate']).toMatchObject({ ratio: 11, met: true, target: '>= 10x' });
    expect(rows['paused-heap.bytes']?.met).toBe(true);
    // 0.6x CPU misses the four untraced turn rows and the two traced ones, 1.5x delivery and 0.6x heap miss too; 0.6x RSS meets.
    expect(summarize([report('baton', 300, 150, 9000), report('reference', 500, 100, 15000)]).filter((r) => r.met === false)).toHaveLength(8);
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

describe('paused-run state rows (issue 6)', () => {
  it('compare the 20-turn state with the reference, and judge growth per doubling against linear', () => {
    const rows = byId([report('baton', 100, 300, 4000), report('reference', 500, 100, 15000)]);
    expect(rows['state.bytes']).toMatchObject({ target: '<= 0.5x', met: true });
    expect(rows['state.bytes']!.baton.median).toBe(14_000);
    expect(rows['state.bytes']!.ratio).toBeCloseTo(14_000 / 51_000);
    expect(rows['state.toString']).toMatchObject({ target: '<= 0.5x', met: true });
    expect(rows['state.fromString']).toMatchObject({ target: '<= 0.5x', met: true });
    for (const id of ['state.growth.bytes', 'state.growth.toString', 'state.growth.fromString']) {
      expect(rows[id]).toMatchObject({ target: '<= 2.2x', met: true });
      expect(rows[id]!.ratio).toBeUndefined();
      expect(rows[id]!.baton.median).toBeCloseTo(2);
      expect(rows[id]!.reference.median).toBeCloseTo(3);
    }
  });

  it('miss when Baton is not half the reference or grows faster than linear', () => {
    const bloated = state(12_000, 2_000, 150, 2.6);
    const rows = byId([report('baton', 100, 300, 4000, GOOD_GUARDRAILS, bloated), report('reference', 500, 100, 15000)]);
    expect(rows['state.bytes']).toMatchObject({ met: false });
    expect(rows['state.toString']).toMatchObject({ met: false });
    expect(rows['state.fromString']).toMatchObject({ met: true });
    expect(rows['state.growth.toString']).toMatchObject({ met: false });
  });

  it('perDoubling is the geometric mean factor from the smallest to the largest size', () => {
    expect(perDoubling([10, 20, 40, 80], [1, 2, 4, 8])).toBeCloseTo(2);
    expect(perDoubling([10, 20, 40, 80], [1, 3, 9, 27])).toBeCloseTo(3);
    expect(perDoubling([10, 80], [5, 320])).toBeCloseTo(4);
  });

  it('the note lists every size for both SDKs', () => {
    const note = stateNote([report('baton', 100, 300, 4000), report('reference', 500, 100, 15000)]);
    expect(note).toContain('Paused run state at 10 / 20 / 40 / 80 tool turns');
    expect(note).toContain('Baton: size 7.0 kB / 14.0 kB / 28.0 kB / 56.0 kB; toString 60.0 µs / 120 µs / 240 µs / 480 µs');
    expect(note).toContain('reference: size 17.0 kB / 51.0 kB / 153.0 kB / 459.0 kB');
  });
});

describe('idle-consumer rows (issue 7)', () => {
  it('the model may produce at most the buffer while nobody reads; heap rows are information with a ratio', () => {
    const rows = byId([report('baton', 100, 300, 4000), report('reference', 500, 100, 15000)]);
    expect(rows['idle.produced']).toMatchObject({ target: '<= 256', met: true });
    expect(rows['idle.peak']?.met).toBeUndefined();
    expect(rows['idle.peak']!.ratio).toBeCloseTo(500_000 / 30_000_000);
    expect(rows['idle.held']?.met).toBeUndefined();
    const table = formatTable(summarize([report('baton', 100, 300, 4000), report('reference', 500, 100, 15000)]));
    expect(table).toMatch(/deltas the model produced meanwhile\s+256\s+150,000\s+0\.0017x\s+lower\s+<= 256\s+met/);
    expect(table).toMatch(/peak heap growth while unread\s+500\.0 kB\s+30\.0 MB\s+0\.02x/);
  });

  it('misses when the run kept producing past the buffer', () => {
    const rows = byId([report('baton', 100, 300, 4000, GOOD_GUARDRAILS, GOOD_STATE, idle(257, 500_000, 0)), report('reference', 500, 100, 15000)]);
    expect(rows['idle.produced']).toMatchObject({ met: false });
  });

  it('ratios under 0.01 keep two significant digits', () => {
    expect(formatRatio(0.0042)).toBe('0.0042x');
    expect(formatRatio(0.43)).toBe('0.43x');
    expect(formatRatio(0)).toBe('0.00x');
  });

  it('the note gives the range over rounds and the idle time', () => {
    const note = idleNote([report('baton', 100, 300, 4000), report('reference', 500, 100, 15000), report('baton', 100, 300, 4000, GOOD_GUARDRAILS, GOOD_STATE, idle(250, 1, 0))]);
    expect(note).toBe(
      'Idle consumer, all rounds: Baton produced 250–256 of 200,000 deltas in 1000 ms unread; ' +
        'reference produced 150,000–150,000 of 200,000 deltas in 1000 ms unread; both then delivered every delta once read.',
    );
  });
});
