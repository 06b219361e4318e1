/**
 * The guardrail-latency scenarios, shared by both SDKs' adapters: a model that takes a fixed time
 * (its timer honours the request's `signal`, as a real HTTP request would), one input guardrail that
 * takes a fixed time and then passes or trips, and a probe that records when each of them started
 * and ended. Each adapter only builds its own Agent and says what its tripwire error looks like.
 */
import { check } from './adapter.js';
import { FINAL_TEXT } from './instantScript.js';

export interface GuardrailPlan {
  /** How long the model takes to answer (unless its request is aborted first). */
  modelMs: number;
  /** How long the guardrail takes before it returns. */
  guardrailMs: number;
  /** Whether the guardrail trips (`tripwireTriggered: true`) or passes. */
  trips: boolean;
  /** `false` makes the guardrail blocking: it must finish before the model is called. */
  runInParallel: boolean;
}

/** What one guardrail run did. Times are milliseconds since the run call. */
export interface GuardrailRunOutcome {
  /** From the run call until the run resolved or rejected. */
  wallMs: number;
  /** The run rejected with the SDK's `InputGuardrailTripwireTriggered`. */
  tripped: boolean;
  guardrailStartMs: number;
  guardrailEndMs: number;
  /** Absent when the model was never called. */
  model?: {
    startMs: number;
    /** When the request ended: answered, or given up because its signal fired. */
    endMs: number;
    /** The SDK passed `request.signal` to the model. */
    hadSignal: boolean;
    /** The signal fired while the request was still in flight (so it was cut short). */
    aborted: boolean;
  };
}

/** Resolves after `ms`, or rejects with an AbortError as soon as `signal` fires (clearing the timer). */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Records what the model and the guardrail of one run did. `model` and `guardrail` are called by the
 * adapters' Model and guardrail; `settled()` waits until both have ended, so a run never overlaps the
 * next one (an SDK that rejects early but leaves its model request running is waited for here).
 */
export class GuardrailProbe {
  readonly t0 = performance.now();
  guardrailStartMs: number | undefined;
  guardrailEndMs: number | undefined;
  guardrailCalls = 0;
  modelCalls = 0;
  model: GuardrailRunOutcome['model'];
  private readonly pending: Promise<unknown>[] = [];

  constructor(readonly plan: GuardrailPlan) {}

  private now(): number {
    return performance.now() - this.t0;
  }

  /** The model's side: wait `modelMs` unless the request's signal fires first. */
  async callModel(signal: AbortSignal | undefined): Promise<void> {
    this.modelCalls += 1;
    const startMs = this.now();
    const model = { startMs, endMs: Number.NaN, hadSignal: signal !== undefined, aborted: false };
    this.model = model;
    const request = abortableDelay(this.plan.modelMs, signal).then(
      () => {
        model.endMs = this.now();
      },
      (error: unknown) => {
        model.endMs = this.now();
        model.aborted = signal?.aborted === true;
        throw error;
      },
    );
    this.pending.push(request.catch(() => undefined));
    await request;
  }

  /** The guardrail's side: wait `guardrailMs`, then pass or trip. */
  async runGuardrail(): Promise<{ tripwireTriggered: boolean; outputInfo: { benchGuardrail: true } }> {
    this.guardrailCalls += 1;
    this.guardrailStartMs = this.now();
    const done = abortableDelay(this.plan.guardrailMs);
    this.pending.push(done);
    await done;
    this.guardrailEndMs = this.now();
    return { tripwireTriggered: this.plan.trips, outputInfo: { benchGuardrail: true } };
  }

  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }
}

/**
 * Performs one guardrail run and checks it did what the scenario claims: the guardrail ran once;
 * a tripping guardrail made the run reject with the SDK's tripwire error, a passing one let it
 * finish with the scripted answer; a blocking guardrail finished before the model was called (and a
 * blocking tripwire means the model is never called); a parallel guardrail overlapped the model call.
 */
export async function guardrailRun(
  sdk: string,
  plan: GuardrailPlan,
  run: (probe: GuardrailProbe) => Promise<unknown>,
  isTripwire: (error: unknown) => boolean,
): Promise<GuardrailRunOutcome> {
  const probe = new GuardrailProbe(plan);
  let finalOutput: unknown;
  let failure: { error: unknown } | undefined;
  try {
    finalOutput = await run(probe);
  } catch (error) {
    failure = { error };
  }
  const wallMs = performance.now() - probe.t0;
  await probe.settled();

  check(probe.guardrailCalls === 1, `${sdk} ran the guardrail ${probe.guardrailCalls} times, expected once`);
  const guardrailStartMs = probe.guardrailStartMs!;
  const guardrailEndMs = probe.guardrailEndMs!;
  if (plan.trips) {
    check(failure !== undefined, `${sdk} run resolved although its guardrail tripped`);
    check(isTripwire(failure.error), `${sdk} run rejected with something other than its tripwire error: ${String(failure.error)}`);
  } else {
    if (failure) throw failure.error;
    check(finalOutput === FINAL_TEXT, `${sdk} final output was ${JSON.stringify(finalOutput)}`);
    check(probe.modelCalls === 1, `${sdk} called the model ${probe.modelCalls} times, expected once`);
  }
  check(probe.modelCalls <= 1, `${sdk} called the model ${probe.modelCalls} times`);
  const model = probe.model;
  if (!plan.runInParallel) {
    if (plan.trips) check(model === undefined, `${sdk} called the model although its blocking guardrail tripped`);
    else check(model !== undefined && model.startMs >= guardrailEndMs, `${sdk} called the model before its blocking guardrail finished`);
  } else {
    check(model !== undefined && model.startMs < guardrailEndMs, `${sdk} did not call the model while its parallel guardrail ran`);
  }
  const outcome: GuardrailRunOutcome = { wallMs, tripped: failure !== undefined, guardrailStartMs, guardrailEndMs };
  if (model) outcome.model = model;
  return outcome;
}
