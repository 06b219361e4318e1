import { Agent, InputGuardrailTripwireTriggered } from '@baton/core';
import { guardrailFromAgent } from '@baton/guardrails';
import { fakeResponder, fakeText } from '@baton/testing';
import { z } from 'zod';
import type { Backend } from '../backend.js';
import { say, since, stepHeader, type Log } from '../log.js';
import { refundSpecialist } from '../specialist.js';
import { triageAgent } from '../triage.js';

/** How long the main model takes to answer offline, and how long the checker takes. */
export const MODEL_MS = 3000;
export const CHECKER_MS = 120;

const CHECKER_INSTRUCTIONS = 'Card check: does the message contain a payment card number?';

export interface GuardrailFacts {
  readonly tripped: boolean;
  readonly trippedAtMs: number | undefined;
  readonly rejectedAtMs: number;
  readonly modelMs: number | undefined;
  /** How the local server saw the main model request end (`client_closed`: the client aborted it). */
  readonly modelRequestOutcome: string | undefined;
}

/**
 * Step 2: a cheap checker model runs beside the main model call (a parallel input guardrail). It
 * trips, and the run is rejected at once: the main model request, still in flight, is aborted.
 */
export async function guardrailStep(backend: Backend, log: Log): Promise<GuardrailFacts> {
  stepHeader(log, 2, 'A parallel guardrail trips and stops the model', 'the checker and the model start together; when the checker trips, the run is rejected right away and the in-flight model request is aborted — not awaited.');
  // Both requests are in flight at once, so each answer is chosen by what the request is.
  const answer = fakeResponder(({ body }) =>
    String(body.instructions ?? '').includes('Card check')
      ? fakeText(JSON.stringify({ containsCardNumber: true }), { delayMs: CHECKER_MS })
      : fakeText('Let me look into that charge.', { delayMs: MODEL_MS }),
  );
  backend.script('openai', answer, answer);

  const checker = new Agent({
    name: 'Card checker',
    instructions: CHECKER_INSTRUCTIONS,
    model: backend.openaiModel,
    outputType: z.object({ containsCardNumber: z.boolean() }),
  });
  let start = 0;
  let trippedAtMs: number | undefined;
  const noCardNumbers = guardrailFromAgent(checker, {
    name: 'no_card_numbers',
    runInParallel: true,
    runner: backend.runner,
    tripwire: (verdict) => {
      if (verdict.containsCardNumber) trippedAtMs = since(start);
      return verdict.containsCardNumber;
    },
  });
  const triage = triageAgent(backend.openaiModel, [refundSpecialist(backend.openaiModel)], () => {}).clone({ inputGuardrails: [noCardNumbers] });

  const input = 'My card 4111 1111 1111 1111 was charged twice for order A-17.';
  say(log, `customer: "${input}"`);
  const firstRequest = backend.server.requests.length;
  start = performance.now();
  let tripped = false;
  try {
    await backend.runner.run(triage, input);
  } catch (error) {
    if (!(error instanceof InputGuardrailTripwireTriggered)) throw error;
    tripped = true;
  }
  const rejectedAtMs = since(start);

  say(log, `guardrail no_card_numbers (a checker model answering in ~${CHECKER_MS} ms) tripped at ${trippedAtMs ?? '?'} ms`);
  say(log, `run rejected (InputGuardrailTripwireTriggered) at ${rejectedAtMs} ms`);
  if (!backend.offline) {
    say(log, `the OpenAI request was aborted through its AbortSignal (the local server shows this offline)`);
    return { tripped, trippedAtMs, rejectedAtMs, modelMs: undefined, modelRequestOutcome: undefined };
  }
  const mainRequest = backend.server.requests.slice(firstRequest).find((r) => !String(r.body.instructions).includes('Card check'));
  const outcome = mainRequest === undefined ? undefined : (await backend.server.settled(mainRequest.index)).outcome;
  say(log, `model request: its answer was due at ${MODEL_MS} ms; the server recorded "${outcome}" (the client aborted it)`);
  return { tripped, trippedAtMs, rejectedAtMs, modelMs: MODEL_MS, modelRequestOutcome: outcome };
}
