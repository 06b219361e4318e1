import * as Effect from 'effect/Effect';
import {
  Agent,
  RunContext,
  Runner,
  type AgentInputItem,
  type AgentOutputType,
  type GuardrailFunctionOutput,
  type InputGuardrailFunctionArgs,
  type OutputGuardrailFunctionArgs,
  type ResolvedAgentOutput,
  type RunContextContract,
} from '@baton/core';
import { UserError } from '@baton/types';
import { defineInputGuardrail, type DefineInputGuardrailOptions, type InputGuardrailDefinition } from './defineInputGuardrail.js';
import { defineOutputGuardrail, type DefineOutputGuardrailOptions, type OutputGuardrailDefinition } from './defineOutputGuardrail.js';
import { requireFunction, requireOptions, typeName } from '@baton/core/internal';

interface AgentGuardrailBaseOptions<TVerdict, TArgs> {
  name: string;
  /** Whether the checker's (parsed) final output should stop the run. */
  tripwire: (output: TVerdict) => boolean;
  /** What the checker reads. Defaults to the run input (input guardrail) or the agent output as text (output guardrail). */
  input?: (args: TArgs) => string | AgentInputItem[];
  /** The result's `outputInfo`. Defaults to the checker's final output. */
  outputInfo?: (output: TVerdict) => unknown;
  /** Runs the checker; give one with your model provider when the checker's model is a name. */
  runner?: Runner;
  /** The checker run's turn limit. Defaults to 1: a checker answers, it does not use tools. */
  maxTurns?: number;
  timeoutMs?: number;
}

export type InputGuardrailFromAgentOptions<TVerdict, TContext = unknown> = AgentGuardrailBaseOptions<TVerdict, InputGuardrailFunctionArgs<TContext>> & {
  /** Defaults to `true` (beside the model call); `false` checks before the expensive model is called. */
  runInParallel?: boolean;
};

export type OutputGuardrailFromAgentOptions<TVerdict, TOutput = unknown, TContext = unknown> = AgentGuardrailBaseOptions<
  TVerdict,
  OutputGuardrailFunctionArgs<TContext, TOutput>
>;

/**
 * "Cheap model checks first": an input guardrail backed by a checker agent (usually a small model
 * with a structured `outputType`). The checker runs with the parent's context value, its token
 * usage is added to the parent run's usage, and it runs as an Effect in the parent run's fiber, so
 * when the guardrail is no longer needed (a sibling tripped, the run was cancelled) the checker's
 * model request is aborted too.
 */
export function guardrailFromAgent<TOutputType extends AgentOutputType, TContext = unknown>(
  checker: Agent<any, TOutputType>,
  options: InputGuardrailFromAgentOptions<ResolvedAgentOutput<TOutputType>, TContext>,
): InputGuardrailDefinition<TContext> {
  const settings = checkOptions(checker, options, 'guardrailFromAgent');
  const guardrail: DefineInputGuardrailOptions<TContext> = {
    name: options.name,
    execute: (args) => runChecker(checker, settings, args.context, options.input ? () => options.input!(args) : () => args.input),
  };
  if (options.runInParallel !== undefined) guardrail.runInParallel = options.runInParallel;
  if (options.timeoutMs !== undefined) guardrail.timeoutMs = options.timeoutMs;
  return defineInputGuardrail(guardrail);
}

/** The same for output guardrails: the checker reads the agent's final output (as text, JSON for objects). */
export function outputGuardrailFromAgent<TOutputType extends AgentOutputType, TOutput = unknown, TContext = unknown>(
  checker: Agent<any, TOutputType>,
  options: OutputGuardrailFromAgentOptions<ResolvedAgentOutput<TOutputType>, TOutput, TContext>,
): OutputGuardrailDefinition<TOutput, TContext> {
  const settings = checkOptions(checker, options, 'outputGuardrailFromAgent');
  const guardrail: DefineOutputGuardrailOptions<TOutput, TContext> = {
    name: options.name,
    execute: (args) =>
      runChecker(checker, settings, args.context, options.input ? () => options.input!(args) : () => asText(args.agentOutput)),
  };
  if (options.timeoutMs !== undefined) guardrail.timeoutMs = options.timeoutMs;
  return defineOutputGuardrail(guardrail);
}

interface CheckerSettings<TVerdict> {
  tripwire: (output: TVerdict) => boolean;
  outputInfo: (output: TVerdict) => unknown;
  runner: Runner;
  maxTurns: number;
}

function checkOptions<TVerdict>(
  checker: unknown,
  options: AgentGuardrailBaseOptions<TVerdict, never>,
  owner: string,
): CheckerSettings<TVerdict> {
  if (!(checker instanceof Agent)) throw new UserError(`${owner}: the first argument must be an Agent, got ${typeName(checker)}.`);
  requireOptions(options, owner);
  const label = `${owner}("${String(options.name)}")`;
  const tripwire = requireFunction<CheckerSettings<TVerdict>['tripwire']>(options.tripwire, `${label}: \`tripwire\``);
  if (options.input !== undefined) requireFunction(options.input, `${label}: \`input\``);
  if (options.outputInfo !== undefined) requireFunction(options.outputInfo, `${label}: \`outputInfo\``);
  if (options.runner !== undefined && !(options.runner instanceof Runner)) {
    throw new UserError(`${label}: \`runner\` must be a Runner, got ${typeName(options.runner)}.`);
  }
  const maxTurns = options.maxTurns ?? 1;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new UserError(`${label}: \`maxTurns\` must be a positive integer.`);
  return { tripwire, outputInfo: options.outputInfo ?? ((output) => output), runner: options.runner ?? new Runner(), maxTurns };
}

/**
 * Runs the checker as an Effect (so core runs it in the run's fiber) and turns its final output
 * into a verdict. A checker failure fails the guardrail with the checker's own error.
 */
function runChecker<TVerdict>(
  checker: Agent<any, any>,
  settings: CheckerSettings<TVerdict>,
  parentContext: RunContextContract<unknown>,
  input: () => string | AgentInputItem[],
): Effect.Effect<GuardrailFunctionOutput, unknown> {
  return Effect.gen(function* () {
    const checkerInput = yield* Effect.try({ try: input, catch: (error) => error });
    // A context of its own around the parent's value and usage: the checker's tokens count in the
    // parent run's usage, but its run does not replace the parent's bookkeeping on the RunContext.
    const context = new RunContext(parentContext.context, parentContext.usage);
    const result = yield* settings.runner
      .runEffect(checker, checkerInput, { context, maxTurns: settings.maxTurns })
      // What the checker's model or tools threw arrives as a defect: it fails the guardrail like any error.
      .pipe(Effect.catchDefect((defect) => Effect.fail(defect)));
    const output = result.finalOutput as TVerdict;
    return { tripwireTriggered: Boolean(settings.tripwire(output)), outputInfo: settings.outputInfo(output) };
  });
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}
