import type { ToolGuardrailFunctionOutput, ToolInputGuardrail, ToolInputGuardrailData } from '@baton/types';
import type { GuardrailReturn } from './internal/guardrailReturn.js';
import { requireFunction, requireNonEmptyString, requireOptions } from '@baton/core/internal';

/** A tool input guardrail function: sync, async, or an Effect program. */
export type ToolInputGuardrailFunction<TContext = unknown> = (
  data: ToolInputGuardrailData<TContext>,
) => GuardrailReturn<ToolGuardrailFunctionOutput>;

export interface DefineToolInputGuardrailOptions<TContext = unknown> {
  name: string;
  run: ToolInputGuardrailFunction<TContext>;
}

/**
 * A tool input guardrail for `tool({ inputGuardrails })`. It runs before every call of the tool,
 * in list order; `run` is your function unchanged (an Effect it returns runs in the run's fiber).
 */
export interface ToolInputGuardrailDefinition<TContext = unknown> extends ToolInputGuardrail<TContext> {
  readonly type: 'tool_input';
  readonly name: string;
  /** The guardrail function with its full return type (value, promise or Effect). */
  readonly guardrailFunction: ToolInputGuardrailFunction<TContext>;
}

/** Defines a tool input guardrail; build its verdict with `ToolGuardrailFunctionOutputFactory`. */
export function defineToolInputGuardrail<TContext = unknown>(
  options: DefineToolInputGuardrailOptions<TContext>,
): ToolInputGuardrailDefinition<TContext> {
  requireOptions(options, 'defineToolInputGuardrail');
  const name = requireNonEmptyString(options.name, `defineToolInputGuardrail: \`name\``);
  const guardrailFunction = requireFunction<ToolInputGuardrailFunction<TContext>>(options.run, `defineToolInputGuardrail("${name}"): \`run\``);
  return {
    type: 'tool_input',
    name,
    guardrailFunction,
    // The contract types `run` as value-or-promise; an Effect returned here is run by core as a program.
    run: guardrailFunction as ToolInputGuardrail<TContext>['run'],
  };
}
