/**
 * `@baton/testing/scripted`: the scripted model and its helpers without the fake OpenAI server,
 * so they bundle for browsers and other runtimes without Node's `http`.
 */
export { ScriptedModel } from './scriptedModel.js';
export { modelResponse, modelError, modelResponder, modelStream, modelStreamResponder } from './scriptedSteps.js';
export type {
  RecordedModelCall,
  ScriptedModelInput,
  ScriptedModelResponse,
  ScriptedModelRetryAdvice,
  ScriptedModelStream,
  ScriptedRetryAdvice,
  ScriptedStep,
} from './scriptedSteps.js';
export {
  UnexpectedModelCallError,
  UnconsumedModelStepsError,
  InvalidScriptedModelStepError,
  ScriptedModelRequestAbortedError,
  type InvalidScriptedModelStepReason,
} from './scriptedModelErrors.js';
export { assistantMessage, functionCall, type AssistantMessageOptions, type FunctionCallOptions } from './builders.js';
export { deferred, aborted, within, type Deferred } from './async.js';
export { inputOf, toolResultsOf, outputText, resultText } from './recordedCalls.js';
