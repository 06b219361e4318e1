import { describe, expect, it } from 'vitest';
import { FINAL_TEXT } from '../src/sdks/instantScript.js';
import { abortableDelay, guardrailRun, type GuardrailPlan, type GuardrailProbe } from '../src/sdks/guardrailScript.js';

class Tripwire extends Error {}
const isTripwire = (error: unknown) => error instanceof Tripwire;

const PARALLEL_TRIP: GuardrailPlan = { modelMs: 300, guardrailMs: 5, trips: true, runInParallel: true };
const PARALLEL_PASS: GuardrailPlan = { modelMs: 10, guardrailMs: 5, trips: false, runInParallel: true };
const BLOCKING_PASS: GuardrailPlan = { modelMs: 5, guardrailMs: 10, trips: false, runInParallel: false };
const BLOCKING_TRIP: GuardrailPlan = { modelMs: 5, guardrailMs: 5, trips: true, runInParallel: false };

/** A minimal SDK: runs the guardrail and the model as told, and aborts the model on a trip if asked to. */
function fakeSdk(opts: { blocking: boolean; abortOnTrip: boolean; ignoreTrip?: boolean }) {
  return async (probe: GuardrailProbe) => {
    const controller = new AbortController();
    if (opts.blocking) {
      const verdict = await probe.runGuardrail();
      if (verdict.tripwireTriggered && !opts.ignoreTrip) throw new Tripwire();
      await probe.callModel(controller.signal);
      return FINAL_TEXT;
    }
    const model = probe.callModel(opts.abortOnTrip ? controller.signal : undefined);
    model.catch(() => undefined);
    const verdict = await probe.runGuardrail();
    if (verdict.tripwireTriggered && !opts.ignoreTrip) {
      controller.abort();
      throw new Tripwire();
    }
    await model;
    return FINAL_TEXT;
  };
}

describe('abortableDelay', () => {
  it('resolves after its time without a signal', async () => {
    const t0 = performance.now();
    await abortableDelay(15);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(14);
  });

  it('rejects as soon as the signal fires, and at once when it already has', async () => {
    const controller = new AbortController();
    const t0 = performance.now();
    const delay = abortableDelay(10_000, controller.signal);
    setTimeout(() => controller.abort(), 5);
    await expect(delay).rejects.toBeDefined();
    expect(performance.now() - t0).toBeLessThan(1000);
    await expect(abortableDelay(10_000, controller.signal)).rejects.toBeDefined();
  });
});

describe('guardrailRun', () => {
  it('records an aborted model request when the SDK fires the signal', async () => {
    const outcome = await guardrailRun('fake', PARALLEL_TRIP, fakeSdk({ blocking: false, abortOnTrip: true }), isTripwire);
    expect(outcome.tripped).toBe(true);
    expect(outcome.model).toMatchObject({ hadSignal: true, aborted: true });
    expect(outcome.model!.endMs).toBeLessThan(PARALLEL_TRIP.modelMs);
  });

  it('records a request that ran its full time when the SDK gives no signal, and waits for it before returning', async () => {
    const t0 = performance.now();
    const outcome = await guardrailRun('fake', PARALLEL_TRIP, fakeSdk({ blocking: false, abortOnTrip: false }), isTripwire);
    expect(outcome.model).toMatchObject({ hadSignal: false, aborted: false });
    expect(outcome.wallMs).toBeLessThan(PARALLEL_TRIP.modelMs / 2); // this fake rejects early...
    expect(performance.now() - t0).toBeGreaterThanOrEqual(PARALLEL_TRIP.modelMs - 1); // ...but the run is not over until its request ends
  });

  it('accepts correct passing runs, parallel and blocking', async () => {
    await expect(guardrailRun('fake', PARALLEL_PASS, fakeSdk({ blocking: false, abortOnTrip: true }), isTripwire)).resolves.toMatchObject({ tripped: false });
    await expect(guardrailRun('fake', BLOCKING_PASS, fakeSdk({ blocking: true, abortOnTrip: true }), isTripwire)).resolves.toMatchObject({ tripped: false });
    await expect(guardrailRun('fake', BLOCKING_TRIP, fakeSdk({ blocking: true, abortOnTrip: true }), isTripwire)).resolves.toMatchObject({ tripped: true });
  });

  it('fails a run that ignores a tripping guardrail', async () => {
    await expect(guardrailRun('fake', PARALLEL_TRIP, fakeSdk({ blocking: false, abortOnTrip: true, ignoreTrip: true }), isTripwire)).rejects.toThrow(
      /resolved although its guardrail tripped/,
    );
  });

  it('fails a run that rejects with something other than the tripwire', async () => {
    await expect(
      guardrailRun('fake', PARALLEL_TRIP, async (probe) => {
        await probe.runGuardrail();
        throw new Error('boom');
      }, isTripwire),
    ).rejects.toThrow(/something other than its tripwire/);
  });

  it('fails a run that never ran the guardrail', async () => {
    await expect(
      guardrailRun('fake', PARALLEL_PASS, async (probe) => {
        await probe.callModel(undefined);
        return FINAL_TEXT;
      }, isTripwire),
    ).rejects.toThrow(/ran the guardrail 0 times/);
  });

  it('fails a blocking run that calls the model before the guardrail finished', async () => {
    await expect(guardrailRun('fake', BLOCKING_PASS, fakeSdk({ blocking: false, abortOnTrip: true }), isTripwire)).rejects.toThrow(
      /called the model before its blocking guardrail finished/,
    );
  });

  it('fails a blocking run that calls the model although the guardrail tripped', async () => {
    await expect(
      guardrailRun('fake', BLOCKING_TRIP, async (probe) => {
        await probe.runGuardrail();
        await probe.callModel(undefined);
        throw new Tripwire();
      }, isTripwire),
    ).rejects.toThrow(/called the model although its blocking guardrail tripped/);
  });

  it('fails a parallel run that only calls the model after the guardrail finished', async () => {
    await expect(guardrailRun('fake', PARALLEL_PASS, fakeSdk({ blocking: true, abortOnTrip: true }), isTripwire)).rejects.toThrow(
      /did not call the model while its parallel guardrail ran/,
    );
  });
});
