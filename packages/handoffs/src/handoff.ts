import {
  Agent,
  Handoff,
  UserError,
  type AgentOutputType,
  type HandoffInputFilter,
  type InferSchemaOutput,
  type RunContext,
  type StandardSchemaLike,
} from '@baton/core';
import { compileHandoffInput, type HandoffInputParser, type HandoffInputType } from './internal/inputSchema.js';
import { typeName, optionalFunction, optionalNonEmptyString } from '@baton/core/internal';

export type { HandoffInputType } from './internal/inputSchema.js';

/** The value `onHandoff` receives for an `inputType`: the schema's output, or a plain object for a JSON schema. */
export type InferHandoffInput<TInputType> = TInputType extends StandardSchemaLike ? InferSchemaOutput<TInputType> : Record<string, unknown>;

// The callbacks receive the run's `RunContext` (core's class, with approveTool, usage, ...), as in the
// reference, so a callback annotated with `RunContext<MyContext>` type-checks.

/** Whether a handoff is offered this turn, from the run context and the agent offering it. */
export type HandoffEnabledPredicate<TContext = unknown> = (args: {
  runContext: RunContext<TContext>;
  agent: Agent<any, any>;
}) => boolean | Promise<boolean>;

/** `true` / `false`, or a predicate of the run context and the agent offering the handoff, evaluated every turn. */
export type HandoffEnabledOption<TContext = unknown> = boolean | HandoffEnabledPredicate<TContext>;

/** Runs when the model takes the handoff, before the next agent starts. Its errors fail the run unchanged. */
export type OnHandoffCallback<TContext = unknown, TInput = undefined> = (
  context: RunContext<TContext>,
  input: TInput,
) => void | Promise<void>;

interface HandoffOptions<TContext> {
  /** The tool name the model calls; defaults to `transfer_to_<agent name>`. */
  toolNameOverride?: string;
  /** The tool description; defaults to one naming the agent and its `handoffDescription`. */
  toolDescriptionOverride?: string;
  /** Decides what the next agent sees; takes precedence over the runner's `handoffInputFilter`. */
  inputFilter?: HandoffInputFilter;
  /** Whether the handoff is offered to the model this turn. Defaults to `true`. */
  isEnabled?: HandoffEnabledOption<TContext>;
}

/** A handoff without model input: `onHandoff` receives the run context only. */
export interface HandoffConfig<TContext = unknown> extends HandoffOptions<TContext> {
  inputType?: undefined;
  onHandoff?: OnHandoffCallback<TContext, undefined>;
}

/** A handoff whose arguments the model fills in: validated against `inputType`, then passed to `onHandoff`. */
export interface HandoffConfigWithInput<TContext = unknown, TInputType extends HandoffInputType = HandoffInputType>
  extends HandoffOptions<TContext> {
  inputType: TInputType;
  onHandoff: OnHandoffCallback<TContext, InferHandoffInput<TInputType>>;
}

/**
 * A handoff to `agent`, offered to the model as a strict function tool. With `inputType`, the
 * model's arguments are validated (unusable arguments fail the run with `ModelBehaviorError`) and
 * handed to `onHandoff`. Options are checked here: a mistake is a `UserError` naming the option.
 */
export function handoff<TContext = unknown, TOutput extends AgentOutputType = AgentOutputType, TInputType extends HandoffInputType = HandoffInputType>(
  agent: Agent<TContext, TOutput>,
  config: HandoffConfigWithInput<TContext, TInputType>,
): Handoff<TContext>;
export function handoff<TContext = unknown, TOutput extends AgentOutputType = AgentOutputType>(
  agent: Agent<TContext, TOutput>,
  config?: HandoffConfig<TContext>,
): Handoff<TContext>;
export function handoff(agent: Agent<any, any>, config: HandoffConfig<any> | HandoffConfigWithInput<any> = {}): Handoff<any> {
  if (!(agent instanceof Agent)) throw new UserError(`handoff(): the first argument must be an Agent, got ${typeName(agent)}.`);
  const label = `handoff(${JSON.stringify(agent.name)})`;
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UserError(`${label}: the config must be an object, got ${typeName(config)}.`);
  }
  const toolName = optionalNonEmptyString(config.toolNameOverride, `${label}: \`toolNameOverride\``);
  const toolDescription = config.toolDescriptionOverride;
  if (toolDescription !== undefined && typeof toolDescription !== 'string') {
    throw new UserError(`${label}: \`toolDescriptionOverride\` must be a string, got ${typeName(toolDescription)}.`);
  }
  const onHandoff = optionalFunction<OnHandoffCallback<any, unknown>>(config.onHandoff, `${label}: \`onHandoff\``);
  const inputFilter = optionalFunction<HandoffInputFilter>(config.inputFilter, `${label}: \`inputFilter\``);
  const isEnabled = config.isEnabled;
  if (isEnabled !== undefined && typeof isEnabled !== 'boolean' && typeof isEnabled !== 'function') {
    throw new UserError(`${label}: \`isEnabled\` must be a boolean or a function, got ${typeName(isEnabled)}.`);
  }
  let parser: HandoffInputParser | undefined;
  if (config.inputType !== undefined && config.inputType !== null) {
    if (!onHandoff) throw new UserError(`${label}: \`inputType\` needs an \`onHandoff\` callback to receive the validated input.`);
    parser = compileHandoffInput(config.inputType, label);
  }

  const result: Handoff<any> = new Handoff(agent as never, async (context, args) => {
    if (parser) {
      const input = await parser.parse(context, args, result.toolName);
      await onHandoff!(context as RunContext<any>, input);
    } else if (onHandoff) {
      // Without an input type the callback receives the context only, as in the reference.
      await (onHandoff as (context: RunContext<any>) => unknown)(context as RunContext<any>);
    }
    return agent as never;
  });
  if (toolName !== undefined) result.toolName = toolName;
  if (toolDescription !== undefined) result.toolDescription = toolDescription;
  if (parser) {
    result.inputJsonSchema = parser.jsonSchema;
    result.strictJsonSchema = true;
  }
  if (inputFilter) result.inputFilter = inputFilter;
  if (typeof isEnabled === 'boolean') result.isEnabled = async () => isEnabled;
  else if (isEnabled) result.isEnabled = async (args) => Boolean(await isEnabled(args as Parameters<HandoffEnabledPredicate<any>>[0]));
  return result;
}
