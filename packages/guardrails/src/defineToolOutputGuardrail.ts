import type { FunctionCallItem, ToolGuardrailFunctionOutput, ToolOutputGuardrail, ToolOutputGuardrailData } from '@baton/types';
import type { GuardrailReturn } from './internal/guardrailReturn.js';
import { requireFunction, requireNonEmptyString, requireOptions } from '@baton/core/internal';

/** A tool output guardrail function: sync, async, or an Effect program. */
export type ToolOutputGuardrailFunction<TContext = unknown, TCall = FunctionCallItem> = (
  data: ToolOutputGuardrailData<TContext, TCall>,
) => GuardrailReturn<ToolGuardrailFunctionOutput>;

export interface DefineToolOutputGuardrailOptions<TContext = unknown, TCall = FunctionCallItem> {
  name: string;
  run: ToolOutputGuardrailFunction<TContext, TCall>;
}

/**
 * A tool output guardrail for `tool({ outputGuardrails })`. It runs after every call of the tool,
 * in list order, on the tool's original return value.
 */
export interface ToolOutputGuardrailDefinition<TContext = unknown, TCall = FunctionCallItem> extends ToolOutputGuardrail<TContext, TCall> {
  readonly type: 'tool_output';
  readonly name: string;
  readonly guardrailFunction: ToolOutputGuardrailFunction<TContext, TCall>;
}

/** Defines a tool output guardrail; build its verdict with `ToolGuardrailFunctionOutputFactory`. */
export function defineToolOutputGuardrail<TContext = unknown, TCall = FunctionCallItem>(
  options: DefineToolOutputGuardrailOptions<TContext, TCall>,
): ToolOutputGuardrailDefinition<TContext, TCall> {
  requireOptions(options, 'defineToolOutputGuardrail');
  const name = requireNonEmptyString(options.name, `defineToolOutputGuardrail: \`name\``);
  const guardrailFunction = requireFunction<ToolOutputGuardrailFunction<TContext, TCall>>(options.run, `defineToolOutputGuardrail("${name}"): \`run\``);
  return {
    type: 'tool_output',
    name,
    guardrailFunction,
    run: guardrailFunction as ToolOutputGuardrail<TContext, TCall>['run'],
  };
}
