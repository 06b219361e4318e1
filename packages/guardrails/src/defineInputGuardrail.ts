import type {
  GuardrailFunctionOutput,
  InputGuardrail,
  InputGuardrailFunctionArgs,
  InputGuardrailResult,
} from '@baton/types';
import { settle, type GuardrailReturn } from './internal/guardrailReturn.js';
import { optionalBoolean, optionalPositiveNumber, requireFunction, requireNonEmptyString, requireOptions } from '@baton/core/internal';

/** An input guardrail function: sync, async, or an Effect program. */
export type InputGuardrailFunction<TContext = unknown> = (
  args: InputGuardrailFunctionArgs<TContext>,
) => GuardrailReturn<GuardrailFunctionOutput>;

export interface DefineInputGuardrailOptions<TContext = unknown> {
  name: string;
  execute: InputGuardrailFunction<TContext>;
  /** `false` makes it blocking: it finishes before the model is called. Defaults to `true`. */
  runInParallel?: boolean;
  /** Fails the run with `GuardrailExecutionError` when the guardrail takes longer than this. */
  timeoutMs?: number;
}

/**
 * An input guardrail, ready for `Agent({ inputGuardrails })` or `Runner({ inputGuardrails })`.
 * `execute` is the function you gave, unchanged: when it returns an Effect, the run loop runs that
 * program in the run's fiber (so it is interrupted with the run). Outside a run, use `run(args)`.
 */
export interface InputGuardrailDefinition<TContext = unknown> extends InputGuardrail<TContext> {
  readonly type: 'input';
  readonly name: string;
  readonly runInParallel: boolean;
  /** The guardrail function with its full return type (value, promise or Effect). */
  readonly guardrailFunction: InputGuardrailFunction<TContext>;
  /** Runs the guardrail on its own and wraps the verdict as a result. */
  run(args: InputGuardrailFunctionArgs<TContext>): Promise<InputGuardrailResult>;
}

/** Defines an input guardrail; parallel by default, as in the reference. */
export function defineInputGuardrail<TContext = unknown>(options: DefineInputGuardrailOptions<TContext>): InputGuardrailDefinition<TContext> {
  requireOptions(options, 'defineInputGuardrail');
  const name = requireNonEmptyString(options.name, `defineInputGuardrail: \`name\``);
  const owner = `defineInputGuardrail("${name}")`;
  const guardrailFunction = requireFunction<InputGuardrailFunction<TContext>>(options.execute, `${owner}: \`execute\``);
  const runInParallel = optionalBoolean(options.runInParallel, `${owner}: \`runInParallel\``) ?? true;
  const timeoutMs = optionalPositiveNumber(options.timeoutMs, `${owner}: \`timeoutMs\``);
  const definition: InputGuardrailDefinition<TContext> = {
    type: 'input',
    name,
    runInParallel,
    guardrailFunction,
    // The contract types `execute` as value-or-promise; an Effect returned here is run by core as a program.
    execute: guardrailFunction as InputGuardrail<TContext>['execute'],
    async run(args) {
      return { guardrail: { type: 'input', name }, output: await settle(guardrailFunction(args)) };
    },
  };
  if (timeoutMs !== undefined) definition.timeoutMs = timeoutMs;
  return definition;
}
