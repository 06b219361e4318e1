import type {
  InputGuardrailResult,
  OutputGuardrailResult,
  ToolInputGuardrailResult,
  ToolOutputGuardrailResult,
} from './guardrail.js';
import type { RegisteredRunState } from './registry.js';
import type { FunctionCallItem } from './protocol.js';
import type { RunContextContract } from './runContext.js';

/**
 * Base of every error Baton throws. `name` is the class name; `_tag` is the class name too, so an
 * Effect program can `Effect.catchTag('MaxTurnsExceededError', ...)`; `state` (when present) is the
 * run state at the time of the error, for inspection or to resume.
 */
export abstract class AgentsError extends Error {
  declare state?: RegisteredRunState;
  readonly _tag: string;

  constructor(message: string, state?: RegisteredRunState) {
    super(message);
    this.name = new.target.name;
    this._tag = new.target.name;
    if (state !== undefined) this.state = state;
  }
}

/** Something went wrong inside Baton itself. */
export class SystemError extends AgentsError {
  declare readonly _tag: 'SystemError';
}

/** The run needed more turns than `maxTurns` allows. */
export class MaxTurnsExceededError extends AgentsError {
  declare readonly _tag: 'MaxTurnsExceededError';
}

/** The model did something it should not (unknown tool, invalid arguments, unparsable output). */
export class ModelBehaviorError extends AgentsError {
  declare readonly _tag: 'ModelBehaviorError' | 'InvalidToolInputError' | 'ModelStreamIdleTimeoutError';
}

/** The model refused to produce the structured output. */
export class ModelRefusalError extends AgentsError {
  declare readonly _tag: 'ModelRefusalError';
  constructor(
    public readonly refusal: string,
    state?: RegisteredRunState,
  ) {
    super(`Model refused to produce output: ${refusal}`, state);
  }
}

/** The program using Baton passed something invalid. The message names what is wrong. */
export class UserError extends AgentsError {
  declare readonly _tag: 'UserError' | 'InvalidToolOutputError' | 'RunStateError';
}

/** A model call ran past its timeout (the reference's error; `code` is `ETIMEDOUT`). */
export class ModelTimeoutError extends AgentsError {
  declare readonly _tag: 'ModelTimeoutError';
  readonly code = 'ETIMEDOUT';
  readonly timeoutMs: number;
  /** The provider's error seen after the timeout fired, if any. */
  override readonly cause: unknown;

  constructor({ timeoutMs, cause, state }: { timeoutMs: number; cause?: unknown; state?: RegisteredRunState }) {
    super(`Model call timed out after ${timeoutMs}ms.`, state);
    this.timeoutMs = timeoutMs;
    this.cause = cause;
  }
}

/** A tool returned output that does not match what it declared. */
export class InvalidToolOutputError extends UserError {
  declare readonly _tag: 'InvalidToolOutputError';
  constructor(
    message: string,
    state?: RegisteredRunState,
    public readonly originalError?: unknown,
    public readonly toolOutput?: unknown,
  ) {
    super(message, state);
  }
}

/** A streamed model call sent no event for `limits.modelStreamIdleTimeoutMs`; its request was aborted. */
export class ModelStreamIdleTimeoutError extends ModelBehaviorError {
  declare readonly _tag: 'ModelStreamIdleTimeoutError';
  constructor(
    message: string,
    public readonly idleTimeoutMs: number,
    state?: RegisteredRunState,
  ) {
    super(message, state);
  }
}

/** The model's tool arguments are not valid JSON or do not match the tool's schema. */
export class InvalidToolInputError extends ModelBehaviorError {
  declare readonly _tag: 'InvalidToolInputError';
  constructor(
    message: string,
    state?: RegisteredRunState,
    /** What the parser or the schema found wrong; left out while tool data must not be logged. */
    public readonly originalError?: unknown,
    /** The invocation that failed (its context, raw arguments and details); left out while tool data must not be logged. */
    public readonly toolInvocation?: ToolInvocationErrorContext,
  ) {
    super(message, state);
  }
}

/** The invocation behind an `InvalidToolInputError`, as the reference names its parts. */
export interface ToolInvocationErrorContext {
  /** The run context at the time of the error. */
  runContext?: RunContextContract<any>;
  /** The arguments the model sent, as text. */
  input?: string;
  /** The details of the call, as the tool was given them. */
  details?: { toolCall?: FunctionCallItem; resumeState?: string; signal?: AbortSignal };
}

/** A guardrail threw (or returned something that is not a valid result). */
export class GuardrailExecutionError extends AgentsError {
  declare readonly _tag: 'GuardrailExecutionError';
  constructor(
    message: string,
    public readonly error: Error,
    state?: RegisteredRunState,
  ) {
    super(message, state);
  }
}

/** A tool failed in a way that ends the run (its error function rethrew, or a tool guardrail threw). */
export class ToolCallError extends AgentsError {
  declare readonly _tag: 'ToolCallError';
  constructor(
    message: string,
    public readonly error: Error,
    state?: RegisteredRunState,
  ) {
    super(message, state);
  }
}

export class ToolTimeoutError extends AgentsError {
  declare readonly _tag: 'ToolTimeoutError';
  readonly toolName: string;
  readonly timeoutMs: number;
  constructor(args: { toolName: string; timeoutMs: number; state?: RegisteredRunState }) {
    super(`Tool '${args.toolName}' timed out after ${args.timeoutMs}ms.`, args.state);
    this.toolName = args.toolName;
    this.timeoutMs = args.timeoutMs;
  }
}

export class InputGuardrailTripwireTriggered extends AgentsError {
  declare readonly _tag: 'InputGuardrailTripwireTriggered';
  constructor(
    message: string,
    public readonly result: InputGuardrailResult,
    state?: RegisteredRunState,
  ) {
    super(message, state);
  }
}

export class OutputGuardrailTripwireTriggered extends AgentsError {
  declare readonly _tag: 'OutputGuardrailTripwireTriggered';
  constructor(
    message: string,
    public readonly result: OutputGuardrailResult,
    state?: RegisteredRunState,
  ) {
    super(message, state);
  }
}

export class ToolInputGuardrailTripwireTriggered extends AgentsError {
  declare readonly _tag: 'ToolInputGuardrailTripwireTriggered';
  constructor(
    message: string,
    public readonly result: ToolInputGuardrailResult,
    state?: RegisteredRunState,
  ) {
    super(message, state);
  }
}

export class ToolOutputGuardrailTripwireTriggered extends AgentsError {
  declare readonly _tag: 'ToolOutputGuardrailTripwireTriggered';
  constructor(
    message: string,
    public readonly result: ToolOutputGuardrailResult,
    state?: RegisteredRunState,
  ) {
    super(message, state);
  }
}
