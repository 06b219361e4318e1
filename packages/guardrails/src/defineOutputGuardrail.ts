import type {
  GuardrailFunctionOutput,
  OutputGuardrail,
  OutputGuardrailFunctionArgs,
  OutputGuardrailResult,
} from '@baton/types';
import { settle, type GuardrailReturn } from './internal/guardrailReturn.js';
import { optionalPositiveNumber, requireFunction, requireNonEmptyString, requireOptions } from '@baton/core/internal';

/** An output guardrail function: sync, async, or an Effect program. */
export type OutputGuardrailFunction<TOutput = unknown, TContext = unknown> = (
  args: OutputGuardrailFunctionArgs<TContext, TOutput>,
) => GuardrailReturn<GuardrailFunctionOutput>;

export interface DefineOutputGuardrailOptions<TOutput = unknown, TContext = unknown> {
  name: string;
  execute: OutputGuardrailFunction<TOutput, TContext>;
  /** Fails the run with `GuardrailExecutionError` when the guardrail takes longer than this. */
  timeoutMs?: number;
}

/**
 * An output guardrail, ready for `Agent({ outputGuardrails })` or `Runner({ outputGuardrails })`.
 * As with input guardrails, `execute` is your function unchanged (an Effect it returns runs in
 * the run's fiber); `run(args)` runs it on its own.
 */
export interface OutputGuardrailDefinition<TOutput = unknown, TContext = unknown> extends OutputGuardrail<TOutput, TContext> {
  readonly type: 'output';
  readonly name: string;
  readonly guardrailFunction: OutputGuardrailFunction<TOutput, TContext>;
  run(args: OutputGuardrailFunctionArgs<TContext, TOutput>): Promise<OutputGuardrailResult<TOutput>>;
}

/**
 * Defines an output guardrail. The type parameters are the agent's output type first (what
 * `agentOutput` is), then the context type.
 */
export function defineOutputGuardrail<TOutput = unknown, TContext = unknown>(
  options: DefineOutputGuardrailOptions<TOutput, TContext>,
): OutputGuardrailDefinition<TOutput, TContext> {
  requireOptions(options, 'defineOutputGuardrail');
  const name = requireNonEmptyString(options.name, `defineOutputGuardrail: \`name\``);
  const owner = `defineOutputGuardrail("${name}")`;
  const guardrailFunction = requireFunction<OutputGuardrailFunction<TOutput, TContext>>(options.execute, `${owner}: \`execute\``);
  const timeoutMs = optionalPositiveNumber(options.timeoutMs, `${owner}: \`timeoutMs\``);
  const definition: OutputGuardrailDefinition<TOutput, TContext> = {
    type: 'output',
    name,
    guardrailFunction,
    execute: guardrailFunction as OutputGuardrail<TOutput, TContext>['execute'],
    async run(args) {
      const output = await settle(guardrailFunction(args));
      return { guardrail: { type: 'output', name }, agentOutput: args.agentOutput, agent: args.agent, output };
    },
  };
  if (timeoutMs !== undefined) definition.timeoutMs = timeoutMs;
  return definition;
}
