import {
  AgentsError,
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  InvalidToolInputError,
  InvalidToolOutputError,
  MaxTurnsExceededError,
  ModelBehaviorError,
  ModelRefusalError,
  ModelTimeoutError,
  OutputGuardrailTripwireTriggered,
  SystemError,
  ToolCallError,
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
  ToolTimeoutError,
  UserError,
} from './errors.js';
import { RunStateError } from './runStateError.js';

/**
 * The errors a run fails with, each with its literal `_tag`, so an Effect program narrows them with
 * `Effect.catchTag` / `catchTags` (`runner.runEffect` fails with these or a `ModelProviderError`;
 * anything else a model or your own code threw is a defect carrying it unchanged).
 */
export type RunError =
  | SystemError
  | MaxTurnsExceededError
  | ModelBehaviorError
  | InvalidToolInputError
  | ModelRefusalError
  | ModelTimeoutError
  | UserError
  | InvalidToolOutputError
  | RunStateError
  | GuardrailExecutionError
  | ToolCallError
  | ToolTimeoutError
  | InputGuardrailTripwireTriggered
  | OutputGuardrailTripwireTriggered
  | ToolInputGuardrailTripwireTriggered
  | ToolOutputGuardrailTripwireTriggered;

const runErrorClasses = [
  SystemError,
  MaxTurnsExceededError,
  ModelBehaviorError,
  InvalidToolInputError,
  ModelRefusalError,
  ModelTimeoutError,
  UserError,
  InvalidToolOutputError,
  RunStateError,
  GuardrailExecutionError,
  ToolCallError,
  ToolTimeoutError,
  InputGuardrailTripwireTriggered,
  OutputGuardrailTripwireTriggered,
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
];

export function isRunError(error: unknown): error is RunError {
  return runErrorClasses.some((ErrorClass) => error instanceof ErrorClass);
}

/**
 * A model provider's own error, such as `OpenAIProviderError`: an `AgentsError` whose `_tag` ends in
 * `ProviderError` (the convention every provider follows), so `Effect.catchTag('OpenAIProviderError', ...)`
 * narrows it without widening the other tags. Providers also say why (`reason`), the HTTP status when
 * the vendor answered with one, and whether trying again may help (`retryable`); the provider contract
 * kit (`@baton/testing/contract`) checks that they do.
 */
export interface ModelProviderError extends AgentsError {
  readonly _tag: `${string}ProviderError`;
  /** Why the call failed, in the provider's words (`'http'`, `'aborted'`, `'stream_interrupted'`, ...). */
  readonly reason?: string;
  readonly status?: number | undefined;
  readonly retryable?: boolean;
  readonly requestId?: string | undefined;
}

export function isModelProviderError(error: unknown): error is ModelProviderError {
  return error instanceof AgentsError && error._tag.endsWith('ProviderError');
}
