import {
  InvalidToolInputError,
  UserError,
  type FunctionTool,
  type JsonObjectSchema,
  type RegisteredAgent,
  type RunContextContract,
  type ToolCallDetails,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
} from '@baton/types';
import { compileSchema, type InferSchemaOutput, type StandardSchemaLike } from './internal/schema.js';
import { toFunctionToolName } from './internal/names.js';
import { rememberHandledToolError } from './internal/toolCallScope.js';
import { requireFunction, requireBooleanOrFunction } from './internal/validate.js';
import { completeToolCallDetails } from './internal/toolCallDetails.js';
import { runWithToolTimeout, toolTimeoutOf, type ToolTimeoutBehavior, type ToolTimeoutErrorFunction } from './internal/toolTimeout.js';
import type { RunContext } from './runContext.js';

export type ToolParameters = StandardSchemaLike | JsonObjectSchema;

/** Turns a tool's error into the output the model sees; return a string, or throw to fail the run. */
export type ToolErrorFunction<TContext = unknown> = (
  context: RunContext<TContext>,
  error: unknown,
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

export interface ToolOptions<TParameters extends ToolParameters, TContext = unknown, TResult = unknown> {
  /** Defaults to the `execute` function's name. Non-alphanumerics become `_`. */
  name?: string;
  description: string;
  parameters: TParameters;
  /** Strict JSON schema (every property required, no extras). Defaults to `true`. */
  strict?: boolean;
  execute: (
    input: TParameters extends StandardSchemaLike ? InferSchemaOutput<TParameters> : Record<string, unknown>,
    runContext: RunContext<TContext>,
    details: ToolCallDetails,
  ) => TResult | Promise<TResult>;
  /** Turns a thrown error into output for the model; `null` lets the error fail the run. */
  errorFunction?: ToolErrorFunction<TContext> | null;
  needsApproval?: boolean | ToolApprovalFunction<TContext, TParameters extends StandardSchemaLike ? InferSchemaOutput<TParameters> : Record<string, unknown>>;
  isEnabled?: boolean | ToolEnabledFunction<TContext>;
  inputGuardrails?: ToolInputGuardrail<TContext>[];
  outputGuardrails?: ToolOutputGuardrail<TContext>[];
  /** A deadline for each call, in milliseconds (the call's \`details.signal\` aborts when it passes). */
  timeoutMs?: number;
  /** Past the deadline: answer the model (\`'error_as_result'\`, the default) or fail with \`ToolTimeoutError\`. */
  timeoutBehavior?: ToolTimeoutBehavior;
  /** The answer the model gets for a timed-out call (default: `Tool '<name>' timed out after <ms>ms.`). */
  timeoutErrorFunction?: ToolTimeoutErrorFunction<TContext>;
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
  const errorFunction =
    options.errorFunction === null
      ? null
      : options.errorFunction === undefined
        ? defaultToolErrorFunction
        : (requireFunction(options.errorFunction, `tool "${name}": \`errorFunction\``) as ToolErrorFunction<TContext>);
  const needsApproval = requireBooleanOrFunction(options.needsApproval ?? false, `tool "${name}": \`needsApproval\``);
  const isEnabled = requireBooleanOrFunction(options.isEnabled ?? true, `tool "${name}": \`isEnabled\``);
  for (const [field, list] of [['inputGuardrails', options.inputGuardrails], ['outputGuardrails', options.outputGuardrails]] as const) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new UserError(`tool "${name}": \`${field}\` must be an array.`);
    list.forEach((guardrail: { name?: unknown; run?: unknown }, i) => {
      if (typeof guardrail !== 'object' || guardrail === null || typeof guardrail.name !== 'string') {
        throw new UserError(`tool "${name}": \`${field}[${i}]\` must have a string \`name\`.`);
      }
      requireFunction(guardrail.run, `tool "${name}": \`${field}[${i}]\` ("${guardrail.name}") \`run\``);
    });
  }
  const schema = compileSchema(options.parameters, { strict: options.strict ?? true, owner: `tool "${name}" parameters` });
  const timeout = toolTimeoutOf<TContext>(name, options);

  const runCall = async (runContext: RunContextContract<TContext>, input: string, details: ToolCallDetails): Promise<unknown> => {
    const parsed = await parseToolArguments(name, input, schema.validate);
    try {
      return await execute(parsed, runContext, details);
    } catch (error) {
      if (errorFunction === null || details.signal.aborted) throw error;
      rememberHandledToolError(details, error, options.errorFunction !== undefined);
      return errorFunction(runContext as RunContext<TContext>, error);
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
      if (!timeout) return runCall(runContext, input, details);
      return runWithToolTimeout(name, timeout, runContext, details, (timed) => runCall(runContext, input, timed));
    },
    async needsApproval(runContext, input, callId) {
      return typeof needsApproval === 'function' ? Boolean(await needsApproval(runContext as RunContext<TContext>, input as never, callId)) : needsApproval;
    },
    async isEnabled(runContext, agent) {
      return typeof isEnabled === 'function' ? Boolean(await isEnabled({ runContext: runContext as RunContext<TContext>, agent })) : isEnabled;
    },
  };
  if (timeout) Object.assign(functionTool, timeout);
  if (options.inputGuardrails) functionTool.inputGuardrails = options.inputGuardrails;
  if (options.outputGuardrails) functionTool.outputGuardrails = options.outputGuardrails;
  return functionTool;
}

async function parseToolArguments(
  toolName: string,
  input: string,
  validate: (value: unknown) => Promise<{ ok: true; value: unknown } | { ok: false; message: string }>,
): Promise<unknown> {
  let json: unknown;
  try {
    json = input.trim() === '' ? {} : JSON.parse(input);
  } catch (error) {
    throw new InvalidToolInputError(`Invalid JSON input for tool "${toolName}": ${(error as Error).message}`, undefined, error);
  }
  const result = await validate(json);
  if (!result.ok) throw new InvalidToolInputError(`Invalid input for tool "${toolName}": ${result.message}`);
  return result.value;
}
