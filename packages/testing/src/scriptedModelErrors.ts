/** The model was called more times than it has scripted steps. */
export class UnexpectedModelCallError extends Error {
  override readonly name = 'UnexpectedModelCallError';
  constructor(
    readonly callIndex: number,
    readonly streamed: boolean,
  ) {
    super(`ScriptedModel received an unexpected ${streamed ? 'streamed' : 'non-streamed'} call #${callIndex + 1}; no scripted steps remain.`);
  }
}

/** `assertComplete()` found steps nobody consumed. */
export class UnconsumedModelStepsError extends Error {
  override readonly name = 'UnconsumedModelStepsError';
  constructor(readonly remaining: number) {
    super(`ScriptedModel has ${remaining} unconsumed scripted step(s).`);
  }
}

/** A scripted step is malformed or does not fit the call it was given to. */
export class InvalidScriptedModelStepError extends Error {
  override readonly name = 'InvalidScriptedModelStepError';
}

/** The request's signal fired. `name` is `AbortError`, like fetch's. */
export class ScriptedModelRequestAbortedError extends Error {
  override readonly name = 'AbortError';
  constructor(readonly callIndex: number) {
    super(`ScriptedModel call #${callIndex + 1} was aborted.`);
  }
}
