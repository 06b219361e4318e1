import { STATE_TURNS, type ScenarioFigures, type ScenarioId, type StateFigures } from '../protocol.js';
import { GUARDRAIL_PLANS, idealMs } from '../scenarios/guardrailLatency.js';
import { IDLE_BUFFER_SIZE } from '../sdks/idleScript.js';

export type Unit = 'micros' | 'perSecond' | 'bytes' | 'share' | 'count' | 'factor';

/** One row of the table: a figure read from one scenario's results, and the target for it. */
export interface Metric {
  id: string;
  label: string;
  scenario: ScenarioId;
  unit: Unit;
  better: 'lower' | 'higher';
  /** Baton / reference must be at most (lower is better) or at least (higher is better) this. */
  targetRatio?: number;
  /** Baton's own median must be at most (lower is better) or at least (higher is better) this, in `unit`. */
  targetValue?: number;
  /** `false` when dividing the two SDKs' figures means nothing (the column shows "-"). */
  ratio?: false;
  pick(figures: ScenarioFigures): number | undefined;
}

/**
 * "About" a wall time the timers allow: within 10 % or 5 ms of the ideal, whichever is larger
 * (timers fire late by a millisecond or two, more on a busy machine). In microseconds.
 */
export function aboutMicros(ms: number): number {
  return (ms + Math.max(ms * 0.1, 5)) * 1000;
}

/** Linear growth doubles the cost per doubling of the history; "about" that allows 10 %. */
export const LINEAR_GROWTH_BOUND = 2.2;

/** The figure at `STATE_TURNS` tool turns. */
function atStateTurns(f: StateFigures, values: number[]): number | undefined {
  const index = f.turns.indexOf(STATE_TURNS);
  return index < 0 ? undefined : values[index];
}

const trip = GUARDRAIL_PLANS['guardrail-trip'];
const parallel = GUARDRAIL_PLANS['guardrail-parallel'];
const blocking = GUARDRAIL_PLANS['guardrail-blocking'];

export const METRICS: Metric[] = [
  {
    id: 'turns-plain.cpu',
    label: 'Turn overhead, plain: CPU per turn',
    scenario: 'turns-plain',
    unit: 'micros',
    better: 'lower',
    targetRatio: 0.1,
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
    targetRatio: 0.1,
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
    id: 'turns-toolset.cpu',
    label: 'Turn overhead, 8 tools, 2 calls a turn: CPU per turn',
    scenario: 'turns-toolset',
    unit: 'micros',
    better: 'lower',
    targetRatio: 0.1,
    pick: (f) => (f.kind === 'turns' ? f.cpuMicrosPerTurn : undefined),
  },
  {
    id: 'turns-toolset-streamed.cpu',
    label: '… streamed: CPU per turn',
    scenario: 'turns-toolset-streamed',
    unit: 'micros',
    better: 'lower',
    targetRatio: 0.1,
    pick: (f) => (f.kind === 'turns' ? f.cpuMicrosPerTurn : undefined),
  },
  {
    id: 'turns-traced.cpu',
    label: 'Turn overhead, tracing on (in-memory processor): CPU per turn',
    scenario: 'turns-traced',
    unit: 'micros',
    better: 'lower',
    targetRatio: 0.5,
    pick: (f) => (f.kind === 'turns' ? f.cpuMicrosPerTurn : undefined),
  },
  {
    id: 'turns-otlp.cpu',
    label: '… exporting over HTTP (Baton: OTLP; reference: its traces exporter)',
    scenario: 'turns-otlp',
    unit: 'micros',
    better: 'lower',
    targetRatio: 0.5,
    pick: (f) => (f.kind === 'turns' ? f.cpuMicrosPerTurn : undefined),
  },
  {
    id: 'delivery.rate',
    label: 'Text-delta delivery rate',
    scenario: 'delivery',
    unit: 'perSecond',
    better: 'higher',
    targetRatio: 10,
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
    targetRatio: 0.15,
    pick: (f) => (f.kind === 'paused-heap' ? f.bytesPerPausedRun : undefined),
  },
  {
    id: 'concurrent-rss.peak',
    label: 'Peak RSS, 2,000 concurrent 3-turn runs',
    scenario: 'concurrent-rss',
    unit: 'bytes',
    better: 'lower',
    targetRatio: 0.6,
    pick: (f) => (f.kind === 'concurrent-rss' ? f.peakRssBytes : undefined),
  },
  {
    id: 'concurrent-rss.growth',
    label: '… growth over the loaded SDK',
    scenario: 'concurrent-rss',
    unit: 'bytes',
    better: 'lower',
    pick: (f) => (f.kind === 'concurrent-rss' ? f.peakRssBytes - f.baselineRssBytes : undefined),
  },
  {
    id: 'state.bytes',
    label: `Paused run state, ${STATE_TURNS} tool turns: toString() size`,
    scenario: 'state-serialization',
    unit: 'bytes',
    better: 'lower',
    targetRatio: 0.5,
    pick: (f) => (f.kind === 'state' ? atStateTurns(f, f.bytes) : undefined),
  },
  {
    id: 'state.toString',
    label: '… state.toString() time',
    scenario: 'state-serialization',
    unit: 'micros',
    better: 'lower',
    targetRatio: 0.5,
    pick: (f) => (f.kind === 'state' ? atStateTurns(f, f.toStringMicros) : undefined),
  },
  {
    id: 'state.fromString',
    label: '… RunState.fromString() time',
    scenario: 'state-serialization',
    unit: 'micros',
    better: 'lower',
    targetRatio: 0.5,
    pick: (f) => (f.kind === 'state' ? atStateTurns(f, f.fromStringMicros) : undefined),
  },
  {
    id: 'state.growth.bytes',
    label: 'Paused run state, 10 to 80 tool turns: size per doubling',
    scenario: 'state-serialization',
    unit: 'factor',
    better: 'lower',
    ratio: false,
    targetValue: LINEAR_GROWTH_BOUND,
    pick: (f) => (f.kind === 'state' ? f.growth.bytes : undefined),
  },
  {
    id: 'state.growth.toString',
    label: '… toString() time per doubling',
    scenario: 'state-serialization',
    unit: 'factor',
    better: 'lower',
    ratio: false,
    targetValue: LINEAR_GROWTH_BOUND,
    pick: (f) => (f.kind === 'state' ? f.growth.toString : undefined),
  },
  {
    id: 'state.growth.fromString',
    label: '… fromString() time per doubling',
    scenario: 'state-serialization',
    unit: 'factor',
    better: 'lower',
    ratio: false,
    targetValue: LINEAR_GROWTH_BOUND,
    pick: (f) => (f.kind === 'state' ? f.growth.fromString : undefined),
  },
  {
    id: 'idle.produced',
    label: 'Idle consumer (stream left unread): deltas the model produced meanwhile',
    scenario: 'idle-consumer',
    unit: 'count',
    better: 'lower',
    targetValue: IDLE_BUFFER_SIZE,
    pick: (f) => (f.kind === 'idle' ? f.producedWhileIdle : undefined),
  },
  {
    id: 'idle.peak',
    label: '… peak heap growth while unread',
    scenario: 'idle-consumer',
    unit: 'bytes',
    better: 'lower',
    pick: (f) => (f.kind === 'idle' ? f.peakHeapBytes : undefined),
  },
  {
    id: 'idle.held',
    label: '… heap still held after a full GC (end of idle time)',
    scenario: 'idle-consumer',
    unit: 'bytes',
    better: 'lower',
    pick: (f) => (f.kind === 'idle' ? f.heldHeapBytes : undefined),
  },
  {
    id: 'guardrail-trip.wall',
    label: `Guardrail trip, parallel ${trip.guardrailMs} ms vs model ${trip.modelMs} ms: time to reject`,
    scenario: 'guardrail-trip',
    unit: 'micros',
    better: 'lower',
    targetRatio: 0.25,
    targetValue: aboutMicros(idealMs(trip)),
    pick: (f) => (f.kind === 'guardrail' ? f.wallMicros : undefined),
  },
  {
    id: 'guardrail-trip.model',
    label: '… model request ran for',
    scenario: 'guardrail-trip',
    unit: 'micros',
    better: 'lower',
    pick: (f) => (f.kind === 'guardrail' ? f.modelMicros : undefined),
  },
  {
    id: 'guardrail-trip.aborted',
    label: '… model request aborted (its signal fired)',
    scenario: 'guardrail-trip',
    unit: 'share',
    better: 'higher',
    ratio: false,
    targetValue: 1,
    pick: (f) => (f.kind === 'guardrail' ? f.abortedRuns / f.runs : undefined),
  },
  {
    id: 'guardrail-parallel.wall',
    label: `Guardrail pass, parallel ${parallel.guardrailMs} ms beside model ${parallel.modelMs} ms: run time`,
    scenario: 'guardrail-parallel',
    unit: 'micros',
    better: 'lower',
    targetValue: aboutMicros(idealMs(parallel)),
    pick: (f) => (f.kind === 'guardrail' ? f.wallMicros : undefined),
  },
  {
    id: 'guardrail-blocking.wall',
    label: `Guardrail pass, blocking ${blocking.guardrailMs} ms then model ${blocking.modelMs} ms: run time`,
    scenario: 'guardrail-blocking',
    unit: 'micros',
    better: 'lower',
    targetValue: aboutMicros(idealMs(blocking)),
    pick: (f) => (f.kind === 'guardrail' ? f.wallMicros : undefined),
  },
];
