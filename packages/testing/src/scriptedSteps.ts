import type { AgentOutputItem, ModelRequest, ModelResponse, ModelRetryAdvice, ModelRetryAdviceRequest, ModelStreamEvent } from '@baton/types';
import { InvalidScriptedModelStepError, type InvalidScriptedModelStepReason } from './scriptedModelErrors.js';
import { detach } from './internal/detach.js';
import { snapshotResponse, validateResponse } from './internal/scriptedResponse.js';

export type { RecordedModelCall, ScriptedModelResponse } from './scriptedCall.js';
import type { RecordedModelCall, ScriptedModelResponse } from './scriptedCall.js';
/** Raw model stream events: a list or any (async) iterable. */
export type ScriptedModelStream = Iterable<ModelStreamEvent> | AsyncIterable<ModelStreamEvent>;

/** What `getRetryAdvice` answers for a scripted error: the advice, or a function of the advice request. */
export type ScriptedRetryAdvice = ModelRetryAdvice | ((request: ModelRetryAdviceRequest) => ModelRetryAdvice | undefined | Promise<ModelRetryAdvice | undefined>);
/** The reference's name for {@link ScriptedRetryAdvice}. */
export type ScriptedModelRetryAdvice = ScriptedRetryAdvice;

export type ScriptedStep =
  | { readonly type: 'response'; readonly response: ScriptedModelResponse }
  | { readonly type: 'error'; readonly error: unknown; readonly retryAdvice?: ScriptedRetryAdvice | undefined }
  | { readonly type: 'responder'; readonly respond: (call: RecordedModelCall) => ScriptedModelResponse | Promise<ScriptedModelResponse> }
  | { readonly type: 'stream'; readonly events: ScriptedModelStream }
  | { readonly type: 'stream_responder'; readonly respond: (call: RecordedModelCall) => ScriptedModelStream | Promise<ScriptedModelStream> };

/** A step, or a response / output-list shorthand for `modelResponse(...)`. */
export type ScriptedModelInput = ScriptedStep | ScriptedModelResponse;

/** A call answered with this response (copied when the step is queued). */
export const modelResponse = (response: ScriptedModelResponse): Extract<ScriptedStep, { type: 'response' }> => ({ type: 'response', response });

/** A call that fails with `error`; `retryAdvice` is what the model advises about retrying it (`modelSettings.retry.policy`). */
export const modelError = (error: unknown, retryAdvice?: ScriptedRetryAdvice): Extract<ScriptedStep, { type: 'error' }> => ({ type: 'error', error, retryAdvice });

/** A call answered by a function of the recorded call, which may be async. */
export const modelResponder = (respond: Extract<ScriptedStep, { type: 'responder' }>['respond']): Extract<ScriptedStep, { type: 'responder' }> => ({
  type: 'responder',
  respond,
});

/** A streamed call answered by a function of the recorded call returning raw events, which may be async. */
export const modelStreamResponder = (
  respond: Extract<ScriptedStep, { type: 'stream_responder' }>['respond'],
): Extract<ScriptedStep, { type: 'stream_responder' }> => ({ type: 'stream_responder', respond });

/**
 * Raw model stream events for a streamed call: a list (copied when queued), an (async) iterable, or
 * a function of the call (then the same as `modelStreamResponder`).
 */
export function modelStream(events: ScriptedModelStream | ((call: RecordedModelCall) => ScriptedModelStream | Promise<ScriptedModelStream>)): ScriptedStep {
  return typeof events === 'function' ? modelStreamResponder(events) : { type: 'stream', events };
}

/** Checks one constructor / `enqueue()` input and copies its data, so later changes to it do not change the script. */
export function toScriptedStep(input: unknown, inputIndex: number): ScriptedStep {
  if (Array.isArray(input)) return { type: 'response', response: detach(input as AgentOutputItem[]) };
  if (typeof input !== 'object' || input === null) throw invalidInput('invalid_input', inputIndex);
  const step = input as Record<string, unknown>;
  if ('type' in step) {
    const stepType = typeof step.type === 'string' ? step.type : undefined;
    switch (step.type) {
      case 'response':
        if (!('response' in step)) throw invalidInput('missing_response', inputIndex, stepType);
        validateResponse(step.response, { inputIndex });
        return { type: 'response', response: snapshotResponse(step.response as ScriptedModelResponse) };
      case 'error': {
        if (!('error' in step)) throw invalidInput('missing_error', inputIndex, stepType);
        const advice = step.retryAdvice as ScriptedRetryAdvice | undefined;
        return { type: 'error', error: step.error, retryAdvice: typeof advice === 'function' ? advice : detach(advice) };
      }
      case 'responder':
      case 'stream_responder':
        if (typeof step.respond !== 'function') throw invalidInput('missing_responder', inputIndex, stepType);
        return { type: step.type, respond: step.respond as never };
      case 'stream':
        if (!isEventSource(step.events)) throw invalidInput('invalid_stream', inputIndex, stepType);
        return { type: 'stream', events: Array.isArray(step.events) ? detach(step.events) : step.events };
      default:
        throw invalidInput('unknown_step_type', inputIndex, stepType);
    }
  }
  if ('output' in step || 'usage' in step) {
    validateResponse(step, { inputIndex });
    return { type: 'response', response: snapshotResponse(step as unknown as ModelResponse) };
  }
  throw invalidInput('invalid_input', inputIndex);
}

/** A list or an (async) iterable of events. */
export function isEventSource(value: unknown): value is ScriptedModelStream {
  if (typeof value !== 'object' || value === null) return false;
  return typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function' || typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}

const explanations: Record<InvalidScriptedModelStepReason, string> = {
  invalid_input: 'is not a step, a response or an output list',
  unknown_step_type: 'has an unknown step type',
  missing_response: "is a 'response' step without a response",
  invalid_response: 'is not a valid response',
  missing_error: "is an 'error' step without an error",
  missing_responder: 'has no respond function',
  invalid_stream: "is a 'stream' step whose events are not a list or an (async) iterable",
  incompatible_call: 'does not fit the call',
};

function invalidInput(reason: InvalidScriptedModelStepReason, inputIndex: number, stepType?: string): InvalidScriptedModelStepError {
  const what = reason === 'unknown_step_type' && stepType !== undefined ? `has the unknown step type "${stepType}"` : explanations[reason];
  return new InvalidScriptedModelStepError({
    reason,
    inputIndex,
    ...(stepType === undefined ? {} : { stepType }),
    message: `ScriptedModel input #${inputIndex + 1} ${what}.`,
  });
}
