import type { FunctionCallItem, ToolGuardrailFunctionOutput, ToolInputGuardrail, ToolInputGuardrailData } from '@baton/types';
import type { GuardrailReturn } from './internal/guardrailReturn.js';
import { requireFunction, requireNonEmptyString, requireOptions } from '@baton/core/internal';

/** A tool input guardrail function: sync, async, or an Effect program. */
export type ToolInputGuardrailFunction<TContext = unknown, TCall = FunctionCallItem> = (
  data: ToolInputGuardrailData<TContext, TCall>,
) => GuardrailReturn<ToolGuardrailFunctionOutput>;

export interface DefineToolInputGuardrailOptions<TContext = unknown, TCall = FunctionCallItem> {
  name: string;
  run: ToolInputGuardrailFunction<TContext, TCall>;
}

/**
 * A tool input guardrail for `tool({ inputGuardrails })`. It runs before every call of the tool,
 * in list order; `run` is your function unchanged (an Effect it returns runs in the run's fiber).
 */
export interface ToolInputGuardrailDefinition<TContext = unknown, TCall = FunctionCallItem> extends ToolInputGuardrail<TContext, TCall> {
  readonly type: 'tool_input';
  readonly name: string;
  /** The guardrail function with its full return type (value, promise or Effect). */
  readonly guardrailFunction: ToolInputGuardrailFunction<TContext, TCall>;
}

/** Defines a tool input guardrail; build its verdict with `ToolGuardrailFunctionOutputFactory`. */
export function defineToolInputGuardrail<TContext = unknown, TCall = FunctionCallItem>(
  options: DefineToolInputGuardrailOptions<TContext, TCall>,
): ToolInputGuardrailDefinition<TContext, TCall> {
  requireOptions(options, 'defineToolInputGuardrail');
  const name = requireNonEmptyString(options.name, `defineToolInputGuardrail: \`name\``);
  const guardrailFunction = requireFunction<ToolInputGuardrailFunction<TContext, TCall>>(options.run, `defineToolInputGuardrail("${name}"): \`run\``);
  return {
    type: 'tool_input',
    name,
    guardrailFunction,
    // The contract types `run` as value-or-promise; an Effect returned here is run by core as a program.
    run: guardrailFunction as ToolInputGuardrail<TContext, TCall>['run'],
  };
}
