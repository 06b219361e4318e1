import type { ScenarioFigures, ScenarioId } from '../protocol.js';

export type Unit = 'micros' | 'perSecond' | 'bytes';

/** One row of the table: a figure read from one scenario's results, and the target for it. */
export interface Metric {
  id: string;
  label: string;
  scenario: ScenarioId;
  unit: Unit;
  better: 'lower' | 'higher';
  /** Baton / reference must be at most (lower is better) or at least (higher is better) this. */
  targetRatio?: number;
  pick(figures: ScenarioFigures): number | undefined;
}

export const METRICS: Metric[] = [
  {
    id: 'turns-plain.cpu',
    label: 'Turn overhead, plain: CPU per turn',
    scenario: 'turns-plain',
    unit: 'micros',
    better: 'lower',
    targetRatio: 0.5,
    pick: (f) => (f.kind === 'turns' ? f.cpuMicrosPerTurn : undefined),
  },
  {
    id: 'turns-plain.wall',
    label: 'Turn overhead, plain: wall per turn',
    scenario: 'turns-plain',
    unit: 'micros',
    better: 'lower',
    pick: (f) => (f.kind === 'turns' ? f.wallMicrosPerTurn : undefined),
  },
  {
    id: 'turns-streamed.cpu',
    label: 'Turn overhead, streamed: CPU per turn',
    scenario: 'turns-streamed',
    unit: 'micros',
    better: 'lower',
    targetRatio: 0.5,
    pick: (f) => (f.kind === 'turns' ? f.cpuMicrosPerTurn : undefined),
  },
  {
    id: 'turns-streamed.wall',
    label: 'Turn overhead, streamed: wall per turn',
    scenario: 'turns-streamed',
    unit: 'micros',
    better: 'lower',
    pick: (f) => (f.kind === 'turns' ? f.wallMicrosPerTurn : undefined),
  },
  {
    id: 'delivery.rate',
    label: 'Text-delta delivery rate',
    scenario: 'delivery',
    unit: 'perSecond',
    better: 'higher',
    targetRatio: 2,
    pick: (f) => (f.kind === 'delivery' ? f.deltasPerSecond : undefined),
  },
  {
    id: 'delivery.cpu',
    label: 'Text-delta delivery: CPU per delta',
    scenario: 'delivery',
    unit: 'micros',
    better: 'lower',
    pick: (f) => (f.kind === 'delivery' ? f.cpuMicrosPerDelta : undefined),
  },
  {
    id: 'paused-heap.bytes',
    label: 'Heap per paused run',
    scenario: 'paused-heap',
    unit: 'bytes',
    better: 'lower',
    targetRatio: 0.5,
    pick: (f) => (f.kind === 'paused-heap' ? f.bytesPerPausedRun : undefined),
  },
];
