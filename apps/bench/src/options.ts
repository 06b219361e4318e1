import type { WorkSizes } from './protocol.js';

export interface BenchOptions {
  rounds: number;
  sizes: WorkSizes;
}

/** About 2 minutes on two cores: five rounds, each SDK once per round. */
const FULL: WorkSizes = {
  toolTurns: 10,
  // Both SDKs need a few hundred runs before V8 has optimised their loops (before that, background
  // compilation shows up as CPU well above wall time); measure the steady state.
  overheadWarmupRuns: 300,
  // Blocks of 120 runs: Baton's run is about 0.3 ms, and a block of 30 (under 10 ms) let one
  // background GC or compilation decide its CPU (process CPU counts those threads): measured, CPU
  // per turn then swung ±20 % between blocks and sat at twice the wall time in some.
  overheadRuns: 600,
  blocks: 5,
  deltas: 20_000,
  deliveryWarmupRuns: 1,
  deliveryRuns: 5,
  pausedWarmupRuns: 30,
  pausedRuns: 1_000,
  // Timer-bound (20–300 ms a run), so a few runs give a steady median.
  guardrailWarmupRuns: 1,
  guardrailRuns: 3,
  stateTurns: [10, 20, 40, 80],
  // The reference takes about 0.1 s a call at 80 turns: blocks there hold one call.
  stateTiming: { warmupMs: 300, warmupCycles: 1, blocks: 3, blockMs: 20 },
  idleDeltas: 200_000,
  idleMs: 1_000,
  concurrentRuns: 2_000,
};

/** A smoke run: checks that everything works, figures are not meaningful. */
export const QUICK: WorkSizes = {
  toolTurns: 10,
  overheadWarmupRuns: 2,
  overheadRuns: 5,
  blocks: 1,
  deltas: 20_000,
  deliveryWarmupRuns: 0,
  deliveryRuns: 1,
  pausedWarmupRuns: 5,
  pausedRuns: 100,
  guardrailWarmupRuns: 0,
  guardrailRuns: 1,
  stateTurns: [10, 20, 40, 80],
  stateTiming: { warmupMs: 0, warmupCycles: 1, blocks: 1, blockMs: 0 },
  idleDeltas: 20_000,
  idleMs: 200,
  concurrentRuns: 200,
};

export const USAGE = `usage: pnpm --filter @baton/bench start [--rounds N] [--quick]
  --rounds N   alternating rounds (each SDK once per round); figures are medians over rounds (default 5)
  --quick      one round with small sizes: a smoke run, not a measurement`;

export function parseOptions(argv: string[]): BenchOptions {
  let rounds: number | undefined;
  let quick = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') continue;
    if (arg === '--quick') quick = true;
    else if (arg === '--rounds') {
      rounds = Number(argv[++i]);
      if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds needs a positive integer\n${USAGE}`);
    } else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  return { rounds: rounds ?? (quick ? 1 : 5), sizes: quick ? QUICK : FULL };
}
