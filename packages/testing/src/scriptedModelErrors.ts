/** The model was called more times than it has scripted steps. */
export class UnexpectedModelCallError extends Error {
  override readonly name = 'UnexpectedModelCallError';
  constructor(
    /** The zero-based position of the call in `ScriptedModel.calls`. */
    readonly callIndex: number,
    readonly streamed: boolean,
  ) {
    super(`ScriptedModel received an unexpected ${streamed ? 'streamed' : 'non-streamed'} call #${callIndex + 1}; no scripted steps remain.`);
  }
}

/** `assertComplete()` found steps nobody consumed. */
export class UnconsumedModelStepsError extends Error {
  override readonly name = 'UnconsumedModelStepsError';
  constructor(readonly remainingSteps: number) {
    super(`ScriptedModel has ${remainingSteps} unconsumed scripted step${remainingSteps === 1 ? '' : 's'}.`);
  }
}

/** Why a scripted step was refused. */
export type InvalidScriptedModelStepReason =
  | 'invalid_input'
  | 'unknown_step_type'
  | 'missing_response'
  | 'invalid_response'
  | 'missing_error'
  | 'missing_responder'
  | 'invalid_stream'
  | 'incompatible_call';

/**
 * A scripted step is malformed or does not fit the call it was given to. `inputIndex` points at
 * the constructor / `enqueue()` input that was refused; `callIndex` at the call whose responder
 * answered something invalid or whose mode (streamed or not) the step does not fit.
 */
export class InvalidScriptedModelStepError extends Error {
  override readonly name = 'InvalidScriptedModelStepError';
  readonly reason: InvalidScriptedModelStepReason;
  readonly inputIndex: number | undefined;
  readonly callIndex: number | undefined;
  readonly stepType: string | undefined;
  constructor(options: { reason: InvalidScriptedModelStepReason; message: string; inputIndex?: number; callIndex?: number; stepType?: string }) {
    super(options.message);
    this.reason = options.reason;
    this.inputIndex = options.inputIndex;
    this.callIndex = options.callIndex;
    this.stepType = options.stepType;
  }
}

/** The request's signal fired. `name` is `AbortError`, like fetch's; `callIndex` is unset when the call was refused before it was recorded. */
export class ScriptedModelRequestAbortedError extends Error {
  override readonly name = 'AbortError';
  constructor(readonly callIndex?: number) {
    super(callIndex === undefined ? 'ScriptedModel request was aborted before the call.' : `ScriptedModel call #${callIndex + 1} was aborted.`);
  }
}
