import { describe, expect, it } from 'vitest';
import type { BenchAdapter } from '../src/sdks/adapter.js';
import type { GuardrailPlan } from '../src/sdks/guardrailScript.js';
import { adapter as baton } from '../src/sdks/baton.js';
import { adapter as reference } from '../src/sdks/reference.js';

// Keeps the benchmark honest as the SDKs change: every scenario does the work it claims to measure
// (each adapter function also checks its own outcome and throws when the run did something else).
// Nothing here is timed, except the order of events in the guardrail runs.

// The bench's guardrail plans, shortened so the tests stay quick.
const TRIP: GuardrailPlan = { modelMs: 400, guardrailMs: 10, trips: true, runInParallel: true };
const PARALLEL_PASS: GuardrailPlan = { modelMs: 40, guardrailMs: 30, trips: false, runInParallel: true };
const BLOCKING_PASS: GuardrailPlan = { modelMs: 20, guardrailMs: 30, trips: false, runInParallel: false };
const BLOCKING_TRIP: GuardrailPlan = { modelMs: 20, guardrailMs: 10, trips: true, runInParallel: false };

describe.each<[string, BenchAdapter]>([
  ['baton', baton],
  ['reference', reference],
])('%s adapter', (_name, adapter) => {
  it('runs the tool loop to the final message, plain and streamed', async () => {
    await expect(adapter.toolLoop(3, false)()).resolves.toBeUndefined();
    await expect(adapter.toolLoop(3, true)()).resolves.toBeUndefined();
  });

  it('runs the tool-set loop (two of eight tools a turn) to the final message, plain and streamed', async () => {
    await expect(adapter.toolsetLoop(5, false)()).resolves.toBeUndefined();
    await expect(adapter.toolsetLoop(5, true)()).resolves.toBeUndefined();
  });

  it('delivers every text delta through the run event stream', async () => {
    await expect(adapter.textStream(250)()).resolves.toBe(250);
  });

  it('pauses on the tool that needs approval', async () => {
    const result = (await adapter.pausedRun()()) as { interruptions: unknown[]; finalOutput: unknown };
    expect(result.interruptions).toHaveLength(1);
    expect(result.finalOutput).toBeUndefined();
  });

  it('a parallel guardrail that trips rejects the run with the tripwire while the model is in flight', async () => {
    const outcome = await adapter.guardrailRun(TRIP)();
    expect(outcome.tripped).toBe(true);
    expect(outcome.guardrailEndMs - outcome.guardrailStartMs).toBeGreaterThanOrEqual(TRIP.guardrailMs - 1);
    // The model was called beside the guardrail, and the tripwire came while it was still in flight.
    expect(outcome.model!.startMs).toBeLessThan(outcome.guardrailEndMs);
    expect(outcome.guardrailEndMs).toBeLessThan(outcome.model!.startMs + TRIP.modelMs);
    // Either the request ran its full time, or it was cut short by its signal: nothing in between.
    const ran = outcome.model!.endMs - outcome.model!.startMs;
    if (outcome.model!.aborted) expect(ran).toBeLessThan(TRIP.modelMs);
    else expect(ran).toBeGreaterThanOrEqual(TRIP.modelMs - 1);
    // The run cannot settle before the guardrail has tripped.
    expect(outcome.wallMs).toBeGreaterThanOrEqual(outcome.guardrailEndMs);
  });

  it('a passing parallel guardrail runs beside the model and the run answers', async () => {
    const outcome = await adapter.guardrailRun(PARALLEL_PASS)();
    expect(outcome.tripped).toBe(false);
    expect(outcome.model!.startMs).toBeLessThan(outcome.guardrailEndMs);
    expect(outcome.model!.aborted).toBe(false);
    expect(outcome.wallMs).toBeGreaterThanOrEqual(PARALLEL_PASS.modelMs - 1);
    expect(outcome.wallMs).toBeGreaterThanOrEqual(outcome.guardrailEndMs);
  });

  it('a blocking guardrail finishes before the model is called', async () => {
    const outcome = await adapter.guardrailRun(BLOCKING_PASS)();
    expect(outcome.tripped).toBe(false);
    expect(outcome.model!.startMs).toBeGreaterThanOrEqual(outcome.guardrailEndMs);
    expect(outcome.wallMs).toBeGreaterThanOrEqual(BLOCKING_PASS.guardrailMs + BLOCKING_PASS.modelMs - 2);
  });

  it('a blocking guardrail that trips means the model is never called', async () => {
    const outcome = await adapter.guardrailRun(BLOCKING_TRIP)();
    expect(outcome.tripped).toBe(true);
    expect(outcome.model).toBeUndefined();
  });

  it('one guardrail adapter serves many runs, each recorded on its own', async () => {
    const runOnce = adapter.guardrailRun(PARALLEL_PASS);
    const first = await runOnce();
    const second = await runOnce();
    expect(first.model).not.toBe(second.model);
    expect(second.tripped).toBe(false);
  });
});

describe('the SDKs differ as the guardrail rows report', () => {
  it("Baton aborts the model request (the model's request.signal fires) and rejects well before the model would answer", async () => {
    const outcome = await baton.guardrailRun(TRIP)();
    expect(outcome.model).toMatchObject({ hadSignal: true, aborted: true });
    expect(outcome.wallMs).toBeLessThan(TRIP.modelMs / 2);
  });

  it('the reference (0.20.0) passes no signal unless the caller gives the run one, and waits for the model', async () => {
    const outcome = await reference.guardrailRun(TRIP)();
    expect(outcome.model).toMatchObject({ hadSignal: false, aborted: false });
    expect(outcome.wallMs).toBeGreaterThanOrEqual(TRIP.modelMs - 1);
  });
});
