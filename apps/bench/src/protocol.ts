/** What the parent and the child processes agree on: SDK names, scenario ids and result shapes. */

export const SDKS = ['baton', 'reference'] as const;
export type SdkName = (typeof SDKS)[number];

export const SCENARIOS = [
  'turns-plain',
  'turns-streamed',
  'turns-toolset',
  'turns-toolset-streamed',
  'delivery',
  'paused-heap',
  'state-serialization',
  'idle-consumer',
  'guardrail-trip',
  'guardrail-parallel',
  'guardrail-blocking',
  // Last: tracing leaves the process changed (AsyncLocalStorage's promise hooks stay on).
  'turns-traced',
  'turns-otlp',
] as const;
/** Scenarios that need a child process of their own (peak RSS is per process). */
export const SOLO_SCENARIOS = ['concurrent-rss'] as const;
export const ALL_SCENARIOS = [...SCENARIOS, ...SOLO_SCENARIOS] as const;
export type ScenarioId = (typeof ALL_SCENARIOS)[number];

import type { OpTiming } from './scenarios/timing.js';

/** How much work each child does; `quick` shrinks everything for a smoke run. */
export interface WorkSizes {
  /** Tool turns per run in the overhead scenario (each run also has one final-answer turn). */
  toolTurns: number;
  overheadWarmupRuns: number;
  /** Measured runs in total, timed in `blocks` blocks; the figure is the median block. */
  overheadRuns: number;
  blocks: number;
  deltas: number;
  deliveryWarmupRuns: number;
  /** Measured streamed responses, each timed alone; the figure is the median response. */
  deliveryRuns: number;
  pausedWarmupRuns: number;
  pausedRuns: number;
  /** Per guardrail scenario: untimed runs first, then timed runs; the figure is the median run. */
  guardrailWarmupRuns: number;
  guardrailRuns: number;
  /** Tool-call turns before the pause, one paused state per size (doublings; must include `STATE_TURNS`). */
  stateTurns: number[];
  /** How each `toString` / `fromString` is timed. */
  stateTiming: OpTiming;
  /** Deltas the idle-consumer model yields, and how long nobody reads. */
  idleDeltas: number;
  idleMs: number;
  /** Plain 3-turn runs started at once in the peak-RSS scenario. */
  concurrentRuns: number;
}

/** The size of paused run the issue-6 rows compare. */
export const STATE_TURNS = 20;

export interface TurnOverheadFigures {
  kind: 'turns';
  /** CPU (user + system, all threads) per model turn, in microseconds. */
  cpuMicrosPerTurn: number;
  /** Wall-clock time per model turn, in microseconds. */
  wallMicrosPerTurn: number;
  runs: number;
  turnsPerRun: number;
}

export interface DeliveryFigures {
  kind: 'delivery';
  /** Text deltas received by the consumer per second of wall time (run start to completion). */
  deltasPerSecond: number;
  /** CPU microseconds spent per delivered delta. */
  cpuMicrosPerDelta: number;
  runs: number;
  deltasPerRun: number;
}

export interface PausedHeapFigures {
  kind: 'paused-heap';
  /** Live heap (after a full GC) added per paused run that is kept alive. */
  bytesPerPausedRun: number;
  runs: number;
}

export interface ConcurrentRssFigures {
  kind: 'concurrent-rss';
  /** The process's peak resident set while the runs were in flight (sampled, and the kernel's maxRSS). */
  peakRssBytes: number;
  /** Resident set after loading the SDK and one warm-up run, before the runs started. */
  baselineRssBytes: number;
  runs: number;
  turnsPerRun: number;
}

export interface GuardrailFigures {
  kind: 'guardrail';
  /** Median wall time from the run call until the run resolved (or rejected, for a tripwire), in microseconds. */
  wallMicros: number;
  /** Median time the model request ran (until it answered or its signal fired), in microseconds. */
  modelMicros: number;
  runs: number;
  /** Runs in which the SDK passed a `request.signal` to the model. */
  signalRuns: number;
  /** Runs in which that signal fired while the model request was still in flight. */
  abortedRuns: number;
}

export interface StateFigures {
  kind: 'state';
  /** Per paused state, in the order of `turns`: tool-call turns before the pause. */
  turns: number[];
  /** UTF-8 bytes of `state.toString()`. */
  bytes: number[];
  /** Wall time of one `state.toString()` and of one awaited `RunState.fromString(rootAgent, str)`, in microseconds. */
  toStringMicros: number[];
  fromStringMicros: number[];
  /** Cost factor per doubling of the turns, smallest to largest size (2 = linear). */
  growth: { bytes: number; toString: number; fromString: number };
}

export interface IdleFigures {
  kind: 'idle';
  deltas: number;
  /** How long nobody read (the timer's actual wall time), in milliseconds. */
  idleMs: number;
  /** Text deltas the model had yielded to the SDK when the idle time ended. */
  producedWhileIdle: number;
  /** Highest live-heap reading while unread, above the heap after a full GC just before the run. */
  peakHeapBytes: number;
  /** The heap after a full GC at the end of the idle time, above that same baseline. */
  heldHeapBytes: number;
}

export type ScenarioFigures = TurnOverheadFigures | DeliveryFigures | PausedHeapFigures | StateFigures | IdleFigures | GuardrailFigures | ConcurrentRssFigures;

/** The one line a child prints on stdout: the figures of every scenario it ran, in order. */
export interface ChildReport {
  sdk: SdkName;
  results: Array<{ scenario: ScenarioId; figures: ScenarioFigures }>;
}
