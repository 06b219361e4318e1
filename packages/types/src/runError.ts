import type {
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
import type { RunStateError } from './runStateError.js';

/**
 * The errors a run fails with, each with its literal `_tag`, so an Effect program narrows them with
 * `Effect.catchTag` / `catchTags` (`runner.runEffect` fails with these, or with the error a model
 * or your own code threw, carried unchanged as `ExternalFailure`'s `cause`).
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
