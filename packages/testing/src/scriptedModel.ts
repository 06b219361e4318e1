import {
  Usage,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ModelRetryAdvice,
  type ModelRetryAdviceRequest,
  type ModelStreamEvent,
} from '@baton/types';
import {
  InvalidScriptedModelStepError,
  ScriptedModelRequestAbortedError,
  UnconsumedModelStepsError,
  UnexpectedModelCallError,
} from './scriptedModelErrors.js';

/** One recorded call: what the runner asked for. */
export interface RecordedModelCall {
  readonly index: number;
  readonly streamed: boolean;
  readonly request: Readonly<ModelRequest>;
}

export type ScriptedStep =
  | { readonly type: 'response'; readonly response: ModelResponse | AgentOutputItem[] }
  | { readonly type: 'error'; readonly error: unknown; readonly retryAdvice?: ScriptedRetryAdvice | undefined }
  | { readonly type: 'responder'; readonly respond: (call: RecordedModelCall) => ModelResponse | AgentOutputItem[] | Promise<ModelResponse | AgentOutputItem[]> }
  | { readonly type: 'stream'; readonly events: (call: RecordedModelCall) => Iterable<ModelStreamEvent> | AsyncIterable<ModelStreamEvent> };

/** A step, or a response / output-list shorthand for `modelResponse(...)`. */
export type ScriptedModelInput = ScriptedStep | ModelResponse | AgentOutputItem[];

export const modelResponse = (response: ModelResponse | AgentOutputItem[]): ScriptedStep => ({ type: 'response', response });
/** What `getRetryAdvice` answers for a scripted error: the advice, or a function of the advice request. */
export type ScriptedRetryAdvice = ModelRetryAdvice | ((request: ModelRetryAdviceRequest) => ModelRetryAdvice | undefined | Promise<ModelRetryAdvice | undefined>);

/** A call that fails with `error`; `retryAdvice` is what the model advises about retrying it (`modelSettings.retry.policy`). */
export const modelError = (error: unknown, retryAdvice?: ScriptedRetryAdvice): ScriptedStep => ({ type: 'error', error, retryAdvice });
export const modelResponder = (respond: Extract<ScriptedStep, { type: 'responder' }>['respond']): ScriptedStep => ({ type: 'responder', respond });
/** Raw model stream events for a streamed call (a list, an async iterable, or a function of the call). */
export const modelStream = (
  events: Iterable<ModelStreamEvent> | AsyncIterable<ModelStreamEvent> | ((call: RecordedModelCall) => Iterable<ModelStreamEvent> | AsyncIterable<ModelStreamEvent>),
): ScriptedStep => ({ type: 'stream', events: typeof events === 'function' ? events : () => events });

/** A streamed call answered by a function of the call, which may be async (the reference's `modelStreamResponder`). */
export const modelStreamResponder = (
  respond: (call: RecordedModelCall) => Iterable<ModelStreamEvent> | AsyncIterable<ModelStreamEvent> | Promise<Iterable<ModelStreamEvent> | AsyncIterable<ModelStreamEvent>>,
): ScriptedStep => ({
  type: 'stream',
  events: (call) =>
    (async function* () {
      yield* await respond(call);
    })(),
});

/**
 * A model that plays back a script: one step per call, first in first out. It records every call,
 * throws an `AbortError` when the request's signal fires (before a step, after a responder, and
 * before every streamed event), and streams plain responses as `response_started`, one
 * `output_text_delta` per text part, and `response_done`.
 */
export class ScriptedModel implements Model {
  /** Traced as a model call (a `generation` span), as a provider's model is. */
  readonly traceSpanType = 'generation' as const;
  readonly #steps: ScriptedStep[];
  readonly #calls: RecordedModelCall[] = [];
  /** Advice of the scripted errors thrown so far, by error, oldest first. */
  readonly #retryAdvice = new Map<unknown, Array<ScriptedRetryAdvice | undefined>>();

  constructor(inputs: Iterable<ScriptedModelInput> = []) {
    this.#steps = [...inputs].map(toStep);
  }

  get calls(): readonly RecordedModelCall[] {
    return this.#calls;
  }

  get firstCall(): RecordedModelCall | undefined {
    return this.#calls[0];
  }

  get lastCall(): RecordedModelCall | undefined {
    return this.#calls.at(-1);
  }

  get remainingSteps(): number {
    return this.#steps.length;
  }

  enqueue(...inputs: ScriptedModelInput[]): void {
    this.#steps.push(...inputs.map(toStep));
  }

  assertComplete(): void {
    if (this.#steps.length > 0) throw new UnconsumedModelStepsError(this.#steps.length);
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const { call, step } = this.#take(request, false);
    if (step.type === 'stream') {
      throw new InvalidScriptedModelStepError(`Call #${call.index + 1} is not streamed, but its scripted step is a raw stream.`);
    }
    return this.#resolve(call, step);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const { call, step } = this.#take(request, true);
    if (step.type === 'stream') {
      for await (const event of step.events(call)) {
        throwIfAborted(request, call.index);
        yield event;
      }
      return;
    }
    const response = await this.#resolve(call, step);
    for (const event of autoStream(response)) {
      throwIfAborted(request, call.index);
      yield event;
    }
  }

  #take(request: ModelRequest, streamed: boolean): { call: RecordedModelCall; step: ScriptedStep } {
    const index = this.#calls.length;
    const call: RecordedModelCall = Object.freeze({ index, streamed, request: Object.freeze({ ...request }) });
    this.#calls.push(call);
    throwIfAborted(request, index);
    const step = this.#steps.shift();
    if (!step) throw new UnexpectedModelCallError(index, streamed);
    return { call, step };
  }

  /** The advice scripted with the error being retried (each thrown error's advice is answered once). */
  async getRetryAdvice(request: ModelRetryAdviceRequest): Promise<ModelRetryAdvice | undefined> {
    const queue = this.#retryAdvice.get(request.error);
    if (!queue) return undefined;
    const advice = queue.shift();
    if (queue.length === 0) this.#retryAdvice.delete(request.error);
    return typeof advice === 'function' ? advice(request) : advice;
  }

  async #resolve(call: RecordedModelCall, step: Exclude<ScriptedStep, { type: 'stream' }>): Promise<ModelResponse> {
    if (step.type === 'error') {
      this.#retryAdvice.set(step.error, [...(this.#retryAdvice.get(step.error) ?? []), step.retryAdvice]);
      throw step.error;
    }
    const raw = step.type === 'responder' ? await step.respond(call) : step.response;
    throwIfAborted(call.request, call.index);
    return normalize(raw, call.index);
  }
}

function toStep(input: ScriptedModelInput, index: number): ScriptedStep {
  if (Array.isArray(input)) return { type: 'response', response: input };
  if (typeof input === 'object' && input !== null) {
    if ('output' in input && Array.isArray(input.output)) return { type: 'response', response: input };
    if ('type' in input && ['response', 'error', 'responder', 'stream'].includes(input.type)) return input;
  }
  throw new InvalidScriptedModelStepError(`Scripted input ${index} is not a response, an output list or a step.`);
}

function normalize(raw: ModelResponse | AgentOutputItem[], index: number): ModelResponse {
  if (Array.isArray(raw)) return { output: raw, usage: new Usage({ requests: 1 }), responseId: `scripted-response-${index + 1}` };
  if (!Array.isArray(raw?.output)) throw new InvalidScriptedModelStepError(`The response for call #${index + 1} has no output array.`);
  return { ...raw, responseId: raw.responseId ?? `scripted-response-${index + 1}` };
}

function* autoStream(response: ModelResponse): Iterable<ModelStreamEvent> {
  yield { type: 'response_started' };
  for (const item of response.output) {
    if (item.type !== 'message' && item.type !== undefined) continue;
    if ((item as { role?: string }).role !== 'assistant') continue;
    for (const part of (item as Extract<AgentOutputItem, { role: 'assistant' }>).content) {
      if (part.type !== 'output_text') continue;
      const event: ModelStreamEvent = { type: 'output_text_delta', delta: part.text };
      if (item.id !== undefined) event.itemId = item.id;
      yield event;
    }
  }
  const usage = new Usage(response.usage);
  const done: ModelStreamEvent = {
    type: 'response_done',
    response: { id: response.responseId ?? 'scripted-response', usage, output: response.output },
  };
  if (response.requestId !== undefined) done.response.requestId = response.requestId;
  if (response.providerData !== undefined) done.response.providerData = response.providerData;
  yield done;
}

function throwIfAborted(request: ModelRequest, index: number): void {
  if (request.signal?.aborted) throw new ScriptedModelRequestAbortedError(index);
}
