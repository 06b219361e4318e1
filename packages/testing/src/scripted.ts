/**
 * `@baton/testing/scripted`: the scripted model and its helpers without the fake OpenAI server,
 * so they bundle for browsers and other runtimes without Node's `http`.
 */
export { ScriptedModel, modelResponse, modelError, modelResponder, modelStream, modelStreamResponder } from './scriptedModel.js';
export type { RecordedModelCall, ScriptedRetryAdvice, ScriptedStep, ScriptedModelInput } from './scriptedModel.js';
export {
  UnexpectedModelCallError,
  UnconsumedModelStepsError,
  InvalidScriptedModelStepError,
  ScriptedModelRequestAbortedError,
} from './scriptedModelErrors.js';
export { assistantMessage, functionCall } from './builders.js';
export { deferred, aborted, within, type Deferred } from './async.js';
export { inputOf, toolResultsOf, outputText, resultText } from './recordedCalls.js';
