import type { Model, ModelRequest, ModelResponse, ModelRetryAdvice, ModelRetryAdviceRequest, ModelStreamEvent } from '@baton/types';
import {
  InvalidScriptedModelStepError,
  ScriptedModelRequestAbortedError,
  UnconsumedModelStepsError,
  UnexpectedModelCallError,
} from './scriptedModelErrors.js';
import { isEventSource, toScriptedStep, type RecordedModelCall, type ScriptedModelInput, type ScriptedStep } from './scriptedSteps.js';
import { autoStream } from './internal/autoStream.js';
import { detach } from './internal/detach.js';
import { RetryAdviceBook } from './internal/retryAdviceBook.js';
import { responseForCall } from './internal/scriptedResponse.js';

/**
 * A model that plays back a script: one step per call, first in first out, taken when the call is
 * made (a streamed call takes its step when `getStreamedResponse` is called, not when it is read).
 *
 * - Every input is checked and its data copied when it is queued; a malformed one throws
 *   `InvalidScriptedModelStepError` (with `reason` and `inputIndex`) and `enqueue` adds none.
 * - Every call is recorded with a copy of its request; `calls`, `firstCall`, `lastCall` and the
 *   call a responder receives are fresh copies, so changing them changes nothing recorded.
 * - A request whose signal has already fired is refused with an `AbortError` before it is recorded
 *   or takes a step; the signal is checked again after a responder and before every streamed event.
 * - Plain responses stream as `response_started`, one `output_text_delta` per text part, and
 *   `response_done`.
 */
export class ScriptedModel implements Model {
  /** Traced as a model call (a `generation` span), as a provider's model is. */
  readonly traceSpanType = 'generation' as const;
  readonly #steps: ScriptedStep[];
  readonly #calls: RecordedModelCall[] = [];
  readonly #retryAdvice = new RetryAdviceBook();

  constructor(inputs: Iterable<ScriptedModelInput> = []) {
    this.#steps = Array.from(inputs, (input, index) => toScriptedStep(input, index));
  }

  /** Every call so far, in the order they were made. */
  get calls(): readonly RecordedModelCall[] {
    return Object.freeze(this.#calls.map(exposeCall));
  }

  get firstCall(): RecordedModelCall | undefined {
    const call = this.#calls[0];
    return call && exposeCall(call);
  }

  get lastCall(): RecordedModelCall | undefined {
    const call = this.#calls.at(-1);
    return call && exposeCall(call);
  }

  get remainingSteps(): number {
    return this.#steps.length;
  }

  /** Adds steps to the end of the script; when one input is malformed, none is added. */
  enqueue(...inputs: ScriptedModelInput[]): void {
    this.#steps.push(...inputs.map((input, index) => toScriptedStep(input, index)));
  }

  assertComplete(): void {
    if (this.#steps.length > 0) throw new UnconsumedModelStepsError(this.#steps.length);
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    throwIfAborted(request);
    const { call, step } = this.#take(request, false);
    if (step.type === 'stream' || step.type === 'stream_responder') {
      throw new InvalidScriptedModelStepError({
        reason: 'incompatible_call',
        callIndex: call.index,
        stepType: step.type,
        message: `ScriptedModel call #${call.index + 1} is not streamed, but its scripted step is a raw stream ('${step.type}').`,
      });
    }
    if (step.type === 'error') {
      this.#retryAdvice.record(step.error, request, false, step.retryAdvice);
      throw step.error;
    }
    const scripted = step.type === 'responder' ? await step.respond(call) : step.response;
    throwIfAborted(request, call.index);
    const response = responseForCall(scripted, call);
    throwIfAborted(request, call.index);
    return response;
  }

  getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    try {
      throwIfAborted(request);
      const { call, step } = this.#take(request, true);
      return this.#play(request, call, step);
    } catch (error) {
      return failing(error);
    }
  }

  /** The advice scripted with the error being retried (each throw's advice is answered once). */
  getRetryAdvice(request: ModelRetryAdviceRequest): Promise<ModelRetryAdvice | undefined> {
    return this.#retryAdvice.answer(request);
  }

  #take(request: ModelRequest, streamed: boolean): { call: RecordedModelCall; step: ScriptedStep } {
    const recorded: RecordedModelCall = Object.freeze({ index: this.#calls.length, streamed, request: Object.freeze(detach({ ...request })) });
    this.#calls.push(recorded);
    const step = this.#steps.shift();
    if (!step) throw new UnexpectedModelCallError(recorded.index, streamed);
    return { call: exposeCall(recorded), step };
  }

  async *#play(request: ModelRequest, call: RecordedModelCall, step: ScriptedStep): AsyncGenerator<ModelStreamEvent> {
    const check = () => throwIfAborted(request, call.index);
    check();
    if (step.type === 'error') {
      this.#retryAdvice.record(step.error, request, true, step.retryAdvice);
      throw step.error;
    }
    if (step.type === 'stream' || step.type === 'stream_responder') {
      const events: unknown = step.type === 'stream' ? step.events : await step.respond(call);
      check();
      if (!isEventSource(events)) {
        throw new InvalidScriptedModelStepError({
          reason: 'invalid_stream',
          callIndex: call.index,
          stepType: step.type,
          message: `The stream responder of ScriptedModel call #${call.index + 1} returned neither a list nor an (async) iterable of events.`,
        });
      }
      for await (const event of events) {
        check();
        yield event;
      }
      check();
      return;
    }
    const scripted = step.type === 'responder' ? await step.respond(call) : step.response;
    check();
    const response = responseForCall(scripted, call);
    yield* autoStream(response, check);
  }
}

/** What callers see of a recorded call: a fresh copy, so the record itself cannot be changed. */
function exposeCall(call: RecordedModelCall): RecordedModelCall {
  return Object.freeze({ index: call.index, streamed: call.streamed, request: Object.freeze(detach({ ...call.request })) });
}

function throwIfAborted(request: ModelRequest, callIndex?: number): void {
  if (request.signal?.aborted) throw new ScriptedModelRequestAbortedError(callIndex);
}

/** A stream that fails on its first read (a refused streamed call reports through the stream, as a provider's does). */
async function* failing(error: unknown): AsyncGenerator<ModelStreamEvent> {
  throw error;
}
