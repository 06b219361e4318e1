import type { BenchAdapter } from '../sdks/adapter.js';
import type { GuardrailPlan } from '../sdks/guardrailScript.js';
import type { GuardrailFigures, WorkSizes } from '../protocol.js';
import { spreadOf } from '../report/stats.js';

export type GuardrailScenario = 'guardrail-trip' | 'guardrail-parallel' | 'guardrail-blocking';

/** The three guardrail-latency scenarios of issue 4 (Performance). */
export const GUARDRAIL_PLANS: Record<GuardrailScenario, GuardrailPlan> = {
  /** A parallel guardrail trips at 20 ms while a 300 ms model request is in flight. */
  'guardrail-trip': { modelMs: 300, guardrailMs: 20, trips: true, runInParallel: true },
  /** A parallel guardrail passes after 80 ms beside a 100 ms model. */
  'guardrail-parallel': { modelMs: 100, guardrailMs: 80, trips: false, runInParallel: true },
  /** A blocking guardrail passes after 80 ms, then the 100 ms model runs. */
  'guardrail-blocking': { modelMs: 100, guardrailMs: 80, trips: false, runInParallel: false },
};

/** The ideal wall time of a scenario: the guardrail for a tripwire, else what cannot overlap. */
export function idealMs(plan: GuardrailPlan): number {
  if (plan.trips) return plan.guardrailMs;
  return plan.runInParallel ? Math.max(plan.guardrailMs, plan.modelMs) : plan.guardrailMs + plan.modelMs;
}

/**
 * Guardrail latency: plain runs of an agent with a timed model and one input guardrail
 * (`GUARDRAIL_PLANS`), one after another, each timed from the run call until it resolves or
 * rejects. Each run also waits (untimed) until the model request and the guardrail have ended, so
 * runs never overlap. The figures are medians of the runs; wall-clock, dominated by the timers.
 */
export async function measureGuardrailLatency(adapter: BenchAdapter, sizes: WorkSizes, scenario: GuardrailScenario): Promise<GuardrailFigures> {
  const runOnce = adapter.guardrailRun(GUARDRAIL_PLANS[scenario]);
  for (let i = 0; i < sizes.guardrailWarmupRuns; i++) await runOnce();
  const walls: number[] = [];
  const models: number[] = [];
  let signalRuns = 0;
  let abortedRuns = 0;
  for (let i = 0; i < sizes.guardrailRuns; i++) {
    const outcome = await runOnce();
    walls.push(outcome.wallMs * 1000);
    if (outcome.model) {
      models.push((outcome.model.endMs - outcome.model.startMs) * 1000);
      if (outcome.model.hadSignal) signalRuns += 1;
      if (outcome.model.aborted) abortedRuns += 1;
    }
  }
  return {
    kind: 'guardrail',
    wallMicros: spreadOf(walls).median,
    modelMicros: models.length > 0 ? spreadOf(models).median : 0,
    runs: sizes.guardrailRuns,
    signalRuns,
    abortedRuns,
  };
}
