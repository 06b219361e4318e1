import type { ToolGuardrailFunctionOutput, ToolOutputGuardrail, ToolOutputGuardrailData } from '@baton/types';
import type { GuardrailReturn } from './internal/guardrailReturn.js';
import { requireFunction, requireNonEmptyString, requireOptions } from '@baton/core/internal';

/** A tool output guardrail function: sync, async, or an Effect program. */
export type ToolOutputGuardrailFunction<TContext = unknown> = (
  data: ToolOutputGuardrailData<TContext>,
) => GuardrailReturn<ToolGuardrailFunctionOutput>;

export interface DefineToolOutputGuardrailOptions<TContext = unknown> {
  name: string;
  run: ToolOutputGuardrailFunction<TContext>;
}

/**
 * A tool output guardrail for `tool({ outputGuardrails })`. It runs after every call of the tool,
 * in list order, on the tool's original return value.
 */
export interface ToolOutputGuardrailDefinition<TContext = unknown> extends ToolOutputGuardrail<TContext> {
  readonly type: 'tool_output';
  readonly name: string;
  readonly guardrailFunction: ToolOutputGuardrailFunction<TContext>;
}

/** Defines a tool output guardrail; build its verdict with `ToolGuardrailFunctionOutputFactory`. */
export function defineToolOutputGuardrail<TContext = unknown>(
  options: DefineToolOutputGuardrailOptions<TContext>,
): ToolOutputGuardrailDefinition<TContext> {
  requireOptions(options, 'defineToolOutputGuardrail');
  const name = requireNonEmptyString(options.name, `defineToolOutputGuardrail: \`name\``);
  const guardrailFunction = requireFunction<ToolOutputGuardrailFunction<TContext>>(options.run, `defineToolOutputGuardrail("${name}"): \`run\``);
  return {
    type: 'tool_output',
    name,
    guardrailFunction,
    run: guardrailFunction as ToolOutputGuardrail<TContext>['run'],
  };
}
