import {
  InvalidToolInputError,
  InvalidToolOutputError,
  UserError,
  type FunctionTool,
  type FunctionToolCustomDataExtractor,
  type JsonObjectSchema,
  type RegisteredAgent,
  type RunContextContract,
  type ToolAllowedCallers,
  type ToolCallDetails,
  type ToolInputGuardrail,
  type ToolInvocationErrorContext,
  type ToolOutputGuardrail,
} from '@baton/types';
import { withFixedAnswer } from './internal/fixedAnswer.js';
import { compileSchema, isJsonObjectSchema, isStandardSchema, type InferSchemaOutput, type StandardSchemaLike } from './internal/schema.js';
import { toFunctionToolName } from './internal/names.js';
import { checkedAllowedCallers } from './internal/allowedCallers.js';
import { rememberHandledToolError, rememberParsedInput, takePreparedInput } from './internal/toolCallScope.js';
import { InvalidToolInput, invalidToolInputOf } from './internal/invalidToolInput.js';
import { withInputPreparer, type ReadToolInput } from './internal/preparedToolInput.js';
import { requireFunction, requireBooleanOrFunction } from './internal/validate.js';
import { checkedToolGuardrails } from './internal/toolGuardrailLists.js';
import { completeToolCallDetails } from './internal/toolCallDetails.js';
import { runWithToolTimeout, toolTimeoutOf, type ToolTimeoutBehavior, type ToolTimeoutErrorFunction } from './internal/toolTimeout.js';
import type { RunContext } from './runContext.js';
import { getLogger } from './logger.js';

export type ToolParameters = StandardSchemaLike | JsonObjectSchema;

/** Turns a tool's error into the output the model sees; return a string, or throw to fail the run. */
export type ToolErrorFunction<TContext = unknown> = (
  context: RunContext<TContext>,
  error: unknown,
  /** The call's details, as the call was given them (what \`execute\` gets). */
  details?: ToolCallDetails,
) => string | Promise<string>;

export type ToolApprovalFunction<TContext = unknown, TInput = unknown> = (
  runContext: RunContext<TContext>,
  input: TInput,
  callId?: string,
) => boolean | Promise<boolean>;

export type ToolEnabledFunction<TContext = unknown> = (args: {
  runContext: RunContext<TContext>;
  agent: RegisteredAgent;
}) => boolean | Promise<boolean>;

/**
 * What \`execute\` and \`needsApproval\` receive: the schema's output, or for a plain JSON schema the
 * parsed arguments untyped (\`any\`: the reference's \`unknown\` narrowed or cast by its programs, and
 * property reads, both compile).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolInput<TParameters> = TParameters extends StandardSchemaLike ? InferSchemaOutput<TParameters> : any;

export interface ToolOptions<TParameters extends ToolParameters, TContext = unknown, TResult = unknown> {
  /** Defaults to the `execute` function's name. Non-alphanumerics become `_`. */
  name?: string;
  description: string;
  parameters: TParameters;
  /** Strict JSON schema (every property required, no extras). Defaults to `true`. */
  strict?: boolean;
  execute: (
    input: ToolInput<TParameters>,
    runContext: RunContext<TContext>,
    details: ToolCallDetails,
  ) => TResult | Promise<TResult>;
  /** Turns a thrown error into output for the model; `null` lets the error fail the run. */
  errorFunction?: ToolErrorFunction<TContext> | null;
  needsApproval?: boolean | ToolApprovalFunction<TContext, ToolInput<TParameters>>;
  isEnabled?: boolean | ToolEnabledFunction<TContext>;
  inputGuardrails?: ToolInputGuardrail<TContext>[];
  outputGuardrails?: ToolOutputGuardrail<TContext>[];
  /** A deadline for each call, in milliseconds (the call's \`details.signal\` aborts when it passes). */
  timeoutMs?: number;
  /** Past the deadline: answer the model (\`'error_as_result'\`, the default) or fail with \`ToolTimeoutError\`. */
  timeoutBehavior?: ToolTimeoutBehavior;
  /** The answer the model gets for a timed-out call (default: `Tool '<name>' timed out after <ms>ms.`). */
  timeoutErrorFunction?: ToolTimeoutErrorFunction<TContext>;
  /**
   * The shape of the tool's result (a zod / Standard Schema object, or a JSON object schema that is
   * only declared). A schema is checked on every result (its transforms applied): a result that
   * does not match fails the call with `InvalidToolOutputError`. A tool with an output schema has
   * no default error function (errors fail the call) and its timeouts raise by default.
   */
  outputSchema?: StandardSchemaLike | JsonObjectSchema;
  /** Provider-specific data kept with the tool's definition. */
  providerData?: Record<string, unknown>;
  /**
   * Responses API only: offer the tool unloaded (`defer_loading`), for a `toolSearchTool()` in the
   * same request to load when the model looks for it.
   */
  deferLoading?: boolean;
  /** Responses API only: who may call the tool (`direct`, the default, and/or `programmatic` for Programmatic Tool Calling programs). */
  allowedCallers?: ToolAllowedCallers;
  /**
   * Attaches data of your own to each output item of this tool (`RunToolCallOutputItem.customData`,
   * kept in the serialized state, never sent to the model). Called once the output is final (after
   * output guardrails, before `agent_tool_end`); it must return a JSON object (or null / undefined
   * for none). A throw, or a value that is not a JSON object, fails the run.
   */
  customDataExtractor?: FunctionToolCustomDataExtractor<TContext, TResult>;
}

/**
 * The default error function (the reference's text): the model learns the tool failed and can try
 * again. The error's message is left out, since it may hold details the model should not see; an
 * `errorFunction` of your own may add it.
 */
export function defaultToolErrorFunction(_context: RunContextContract<unknown>, _error: unknown): string {
  return 'An error occurred while running the tool. Please try again.';
}

/**
 * Defines a function tool. Arguments from the model are parsed and validated against `parameters`
 * before `execute` runs; invalid arguments raise `InvalidToolInputError`, which the runner returns
 * to the model (or turns into `ModelBehaviorError` when configured to).
 */
export function tool<TParameters extends ToolParameters, TContext = unknown, TResult = unknown>(
  options: ToolOptions<TParameters, TContext, TResult>,
): FunctionTool<TContext> {
  if (typeof options !== 'object' || options === null) throw new UserError('tool(): expected an options object.');
  const execute = requireFunction(options.execute, 'tool(): `execute`') as unknown as (
    input: unknown,
    runContext: RunContextContract<TContext>,
    details: ToolCallDetails,
  ) => unknown;
  const rawName = options.name ?? execute.name;
  if (typeof rawName !== 'string' || rawName.trim() === '') {
    throw new UserError('tool(): `name` is required (or pass a named `execute` function).');
  }
  const name = toFunctionToolName(rawName);
  if (typeof options.description !== 'string') throw new UserError(`tool "${name}": \`description\` must be a string.`);
  if (options.strict !== undefined && typeof options.strict !== 'boolean') {
    throw new UserError(`tool "${name}": \`strict\` must be a boolean.`);
  }
  if (options.deferLoading !== undefined && typeof options.deferLoading !== 'boolean') {
    throw new UserError(`tool "${name}": \`deferLoading\` must be a boolean.`);
  }
  const output = toolOutputSchema(name, options.outputSchema);
  const allowedCallers = checkedAllowedCallers(options.allowedCallers, name);
  const errorFunction =
    options.errorFunction === null
      ? null
      : options.errorFunction === undefined
        ? output
          ? null
          : defaultToolErrorFunction
        : (requireFunction(options.errorFunction, `tool "${name}": \`errorFunction\``) as ToolErrorFunction<TContext>);
  const customDataExtractor =
    options.customDataExtractor === undefined ? undefined : requireFunction(options.customDataExtractor, `tool "${name}": \`customDataExtractor\``);
  const needsApproval = requireBooleanOrFunction(options.needsApproval ?? false, `tool "${name}": \`needsApproval\``);
  const isEnabled = requireBooleanOrFunction(options.isEnabled ?? true, `tool "${name}": \`isEnabled\``);
  checkedToolGuardrails(`tool "${name}"`, options);
  const schema = compileSchema(options.parameters, { strict: options.strict ?? true, owner: `tool "${name}" parameters` });
  if (output && options.timeoutBehavior === 'error_as_result' && options.timeoutErrorFunction === undefined) {
    throw new UserError(`Function tool '${name}' with an output schema requires timeoutErrorFunction when timeoutBehavior is 'error_as_result'.`);
  }
  const timeout = toolTimeoutOf<TContext>(name, output ? { ...options, timeoutBehavior: options.timeoutBehavior ?? 'raise_exception' } : options);
  const checked = (result: unknown, runContext: RunContextContract<TContext>, details: ToolCallDetails): Promise<unknown> =>
    output ? output.check(result, runContext, details) : Promise.resolve(result);
  if (timeout?.timeoutErrorFunction && output) {
    const answer = timeout.timeoutErrorFunction;
    (timeout as { timeoutErrorFunction: ToolTimeoutErrorFunction<TContext> }).timeoutErrorFunction = async (runContext, error, details) =>
      checked(await answer(runContext, error, details), runContext, details ?? completeToolCallDetails(name, '', undefined));
  }

  const answerError = async (runContext: RunContextContract<TContext>, error: unknown, details: ToolCallDetails | undefined) => {
    const answer = errorFunction as ToolErrorFunction<TContext>;
    return answer(runContext as RunContext<TContext>, error, details);
  };
  const prepareInput = (input: string) => readToolArguments(input, schema.validate);
  const runCall = async (runContext: RunContextContract<TContext>, input: string, details: ToolCallDetails, given: Partial<ToolCallDetails> | undefined): Promise<unknown> => {
    try {
      // As the reference: arguments that are not JSON, or fail the schema, are the tool's error
      // like any other (its error function answers them; with \`errorFunction: null\` they are raised).
      // Read already when the run asked about the call's approval: not validated twice.
      const read = takePreparedInput(details, input, prepareInput)?.read ?? (await prepareInput(input));
      const parsed = argumentsOrThrow(name, input, read, runContext, given);
      if (customDataExtractor !== undefined) rememberParsedInput(details, parsed);
      return await checked(await execute(parsed, runContext, details), runContext, details);
    } catch (error) {
      const invalidInput = invalidToolInputOf(error);
      if (errorFunction === null || details.signal.aborted) throw invalidInput?.refresh() === true ? invalidInput.error : redactedIfNeeded(error);
      // Invalid arguments the error function may not see (tool data is not logged): a bare error, and no details.
      const redactedInput = invalidInput?.refresh() === true;
      const shown = invalidInput?.error ?? error;
      rememberHandledToolError(details, shown, options.errorFunction !== undefined);
      let fallback: unknown;
      try {
        fallback = await answerError(runContext, shown, redactedInput ? undefined : ((given ?? details) as ToolCallDetails));
      } catch (callbackError) {
        if (invalidInput?.refresh() === true) throw invalidInput.error;
        // An invalid-output error the callback rethrows (perhaps edited) is rebuilt, so what it
        // holds stays out when tool data must not be logged.
        throw redactedIfNeeded(error instanceof InvalidToolOutputError && callbackError === error ? error : callbackError);
      }
      // Tool data became secret while the error function ran: its answer may quote the arguments it was shown.
      if (invalidInput !== undefined && !redactedInput && invalidInput.refresh()) throw invalidInput.error;
      // With an output schema, the error function's answer must match it too.
      return checked(fallback, runContext, details);
    }
  };

  const functionTool: FunctionTool<TContext> = {
    type: 'function',
    name,
    description: options.description,
    parameters: schema.jsonSchema,
    strict: schema.strict,
    async invoke(runContext, input, partialDetails) {
      const details = completeToolCallDetails(name, input, partialDetails);
      if (!timeout) return runCall(runContext, input, details, partialDetails);
      return runWithToolTimeout(name, timeout, runContext, details, (timed) => runCall(runContext, input, timed, partialDetails));
    },
    needsApproval:
      typeof needsApproval === 'function'
        ? async (runContext, input, callId) => Boolean(await needsApproval(runContext as RunContext<TContext>, input as never, callId))
        : withFixedAnswer(async () => needsApproval, needsApproval),
    isEnabled:
      typeof isEnabled === 'function'
        ? async (runContext, agent) => Boolean(await isEnabled({ runContext: runContext as RunContext<TContext>, agent }))
        : withFixedAnswer(async () => isEnabled, isEnabled),
  };
  if (timeout) Object.assign(functionTool, timeout);
  if (output) (functionTool as { outputSchema?: JsonObjectSchema }).outputSchema = output.jsonSchema;
  if (options.providerData !== undefined) (functionTool as { providerData?: Record<string, unknown> }).providerData = options.providerData;
  if (options.deferLoading === true) functionTool.deferLoading = true;
  if (allowedCallers) functionTool.allowedCallers = allowedCallers;
  if (customDataExtractor) functionTool.customDataExtractor = customDataExtractor as FunctionToolCustomDataExtractor<TContext>;
  withInputPreparer(functionTool, prepareInput);
  if (options.inputGuardrails) functionTool.inputGuardrails = options.inputGuardrails;
  if (options.outputGuardrails) functionTool.outputGuardrails = options.outputGuardrails;
  return functionTool;
}

const toolDataLogger = getLogger('openai-agents:core');
/** Module-level, not a closure per call: the build's keepNames would name one on every tool call. */
const toolDataIsRedacted = (): boolean => toolDataLogger.dontLogToolData;

/** A tool's output schema: the JSON schema it declares, and the check of each result. */
interface ToolOutputSchema {
  readonly jsonSchema: JsonObjectSchema;
  check(result: unknown, runContext: RunContextContract<any>, details: ToolCallDetails): Promise<unknown>;
}

function toolOutputSchema(name: string, schema: unknown): ToolOutputSchema | undefined {
  if (schema === undefined) return undefined;
  if (isJsonObjectSchema(schema) && !isStandardSchema(schema)) return { jsonSchema: schema, check: async (result) => result };
  const compiled = compileSchema(schema, { strict: true, owner: `tool "${name}" outputSchema` });
  return {
    jsonSchema: compiled.jsonSchema,
    async check(result, runContext, details) {
      const validated = await compiled.validate(result);
      if (validated.ok) return validated.value;
      const message = `Invalid output for function tool '${name}'.`;
      // The result and the validator's words may hold tool data: kept only when tool data may be logged.
      if (toolDataLogger.dontLogToolData) throw redactedOutputError(message);
      const error = new InvalidToolOutputError(message, undefined, new Error(validated.message), { runContext, output: result, details });
      outputErrorMessages.set(error, message);
      throw error;
    },
  };
}

/** The message each invalid-output error was made with (a callback may edit the error's own). */
const outputErrorMessages = new WeakMap<InvalidToolOutputError, string>();

function redactedOutputError(message: string): InvalidToolOutputError {
  const error = new InvalidToolOutputError(message);
  outputErrorMessages.set(error, message);
  return error;
}

/** An invalid-output error of a tool about to leave it: rebuilt without its data when tool data must not be logged (now). */
function redactedIfNeeded(error: unknown): unknown {
  if (!(error instanceof InvalidToolOutputError) || !toolDataLogger.dontLogToolData) return error;
  const message = outputErrorMessages.get(error);
  if (message === undefined) return error;
  const untouched = error.message === message && error.originalError === undefined && error.toolOutput === undefined;
  return untouched ? error : redactedOutputError(message);
}

/**
 * The call's arguments read as JSON (an empty string is not, as on the reference) and checked by
 * the schema; never throws (what went wrong is the failure).
 */
async function readToolArguments(
  input: string,
  validate: (value: unknown) => Promise<{ ok: true; value: unknown } | { ok: false; message: string }>,
): Promise<ReadToolInput> {
  let json: unknown;
  try {
    json = JSON.parse(input);
  } catch (error) {
    return { ok: false, failure: { kind: 'not_json', error } };
  }
  try {
    const result = await validate(json);
    return result.ok ? { ok: true, value: result.value } : { ok: false, failure: { kind: 'invalid', message: result.message } };
  } catch (error) {
    return { ok: false, failure: { kind: 'threw', error } };
  }
}

/**
 * The value `execute` receives, or the error the call fails with: the \`InvalidToolInputError\` of
 * an \`InvalidToolInput\` failure (which says what was wrong only when tool data may be logged), or
 * what the schema's validation threw.
 */
function argumentsOrThrow(toolName: string, input: string, read: ReadToolInput, runContext: RunContextContract<any>, given: Partial<ToolCallDetails> | undefined): unknown {
  if (read.ok) return read.value;
  const { failure } = read;
  if (failure.kind === 'threw') throw failure.error;
  if (failure.kind === 'not_json') {
    const message = `Invalid JSON input for tool "${toolName}": ${(failure.error as Error).message}`;
    throw new InvalidToolInput(toolDataIsRedacted, message, failure.error, invocationOf(runContext, input, given)).error;
  }
  const message = `Invalid input for tool "${toolName}": ${failure.message}`;
  throw new InvalidToolInput(toolDataIsRedacted, message, new Error(failure.message), invocationOf(runContext, input, given)).error;
}

/** What an invalid-input error tells of the call, built only when the arguments fail. */
function invocationOf(runContext: RunContextContract<any>, input: string, given: Partial<ToolCallDetails> | undefined): ToolInvocationErrorContext {
  return (given === undefined ? { runContext, input } : { runContext, input, details: given });
}
