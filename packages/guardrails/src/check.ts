import { UserError } from '@baton/types';
import { defineInputGuardrail, type DefineInputGuardrailOptions, type InputGuardrailDefinition } from './defineInputGuardrail.js';
import { defineOutputGuardrail, type DefineOutputGuardrailOptions, type OutputGuardrailDefinition } from './defineOutputGuardrail.js';
import { defineToolInputGuardrail, type ToolInputGuardrailDefinition } from './defineToolInputGuardrail.js';
import { defineToolOutputGuardrail, type ToolOutputGuardrailDefinition } from './defineToolOutputGuardrail.js';
import { ToolGuardrailFunctionOutputFactory as Verdict } from './toolGuardrailFunctionOutputFactory.js';
import { textOf, textOfInput } from './internal/subjects.js';
import { toolCallSubject, toolOutputText, type GuardedToolCall } from './internal/toolCallSubject.js';
import { optionalString, requireFunction, requireNonEmptyString, requireOptions, typeName } from '@baton/core/internal';

/** Where a check is looking. */
export type CheckSource = 'input' | 'output' | 'tool_input' | 'tool_output';

/**
 * What a check inspects. `value` is the thing itself (the run input, the parsed final output, the
 * parsed tool arguments, the tool's return value); `text` is its text (JSON for non-strings; for a
 * run input, the text of its messages and tool items).
 */
export interface CheckSubject {
  readonly source: CheckSource;
  readonly value: unknown;
  readonly text: string;
}

export interface CheckVerdict<TInfo = unknown> {
  /** Whether the subject fails the check. */
  readonly tripped: boolean;
  /** Becomes the guardrail result's `outputInfo`. Keep secrets out of it: it ends up in error messages. */
  readonly info: TInfo;
  /** The subject's text with the offending parts masked, for checks that can redact. */
  readonly redacted?: string;
}

export interface CheckDefinition<TInfo = unknown> {
  /** Default name of the guardrails made from this check. */
  name: string;
  inspect: (subject: CheckSubject) => CheckVerdict<TInfo> | Promise<CheckVerdict<TInfo>>;
  /** What a tool guardrail sends to the model when it rejects. */
  rejectMessage?: string;
}

export interface CheckInputGuardrailOptions {
  name?: string;
  /** Defaults to `false`: a local check costs nothing, so it runs before the model is called. */
  runInParallel?: boolean;
  timeoutMs?: number;
}

export interface CheckOutputGuardrailOptions {
  name?: string;
  timeoutMs?: number;
}

export interface CheckToolInputGuardrailOptions {
  name?: string;
  /** `rejectContent` (default): the tool is not called and the model is told why; `throwException`: the run fails. */
  behavior?: 'rejectContent' | 'throwException';
  message?: string;
}

export interface CheckToolOutputGuardrailOptions {
  name?: string;
  /**
   * `redact` (default for checks that can redact): the model receives the output with the
   * offending parts masked; `rejectContent`: it receives `message` instead; `throwException`: the run fails.
   */
  behavior?: 'redact' | 'rejectContent' | 'throwException';
  message?: string;
}

/** A check that can be used as any kind of guardrail. */
export interface GuardrailCheck<TInfo = unknown> {
  readonly name: string;
  readonly rejectMessage: string;
  inspect(subject: CheckSubject): CheckVerdict<TInfo> | Promise<CheckVerdict<TInfo>>;
  /** Checks the run input (the text of its messages). Blocking by default. */
  inputGuardrail(options?: CheckInputGuardrailOptions): InputGuardrailDefinition;
  /** Checks the final output. */
  outputGuardrail(options?: CheckOutputGuardrailOptions): OutputGuardrailDefinition;
  /**
   * Checks a tool call before the tool runs: a function tool's arguments, or a local tool's call
   * (a shell call's commands, a patch's path and diff, a computer call's actions).
   */
  toolInputGuardrail(options?: CheckToolInputGuardrailOptions): ToolInputGuardrailDefinition<unknown, GuardedToolCall>;
  /** Checks a tool's output before the model sees it (function tools and the local tools). */
  toolOutputGuardrail(options?: CheckToolOutputGuardrailOptions): ToolOutputGuardrailDefinition<unknown, GuardedToolCall>;
}

type Inspect<TInfo> = CheckDefinition<TInfo>['inspect'];

/** Turns a check function into something usable as an input, output, tool input or tool output guardrail. */
export function defineCheck<TInfo>(definition: CheckDefinition<TInfo>): GuardrailCheck<TInfo> {
  requireOptions(definition, 'defineCheck');
  const name = requireNonEmptyString(definition.name, `defineCheck: \`name\``);
  const owner = `defineCheck("${name}")`;
  const inspect = requireFunction<Inspect<TInfo>>(definition.inspect, `${owner}: \`inspect\``);
  const rejectMessage = optionalString(definition.rejectMessage, `${owner}: \`rejectMessage\``) ?? `Blocked by the "${name}" check.`;

  return {
    name,
    rejectMessage,
    inspect,
    inputGuardrail(options = {}) {
      const guardrail: DefineInputGuardrailOptions = {
        name: options.name ?? name,
        runInParallel: options.runInParallel ?? false,
        execute: async ({ input }) => toGuardrailOutput(await inspect({ source: 'input', value: input, text: textOfInput(input) })),
      };
      if (options.timeoutMs !== undefined) guardrail.timeoutMs = options.timeoutMs;
      return defineInputGuardrail(guardrail);
    },
    outputGuardrail(options = {}) {
      const guardrail: DefineOutputGuardrailOptions = {
        name: options.name ?? name,
        execute: async ({ agentOutput }) =>
          toGuardrailOutput(await inspect({ source: 'output', value: agentOutput, text: textOf(agentOutput) })),
      };
      if (options.timeoutMs !== undefined) guardrail.timeoutMs = options.timeoutMs;
      return defineOutputGuardrail(guardrail);
    },
    toolInputGuardrail(options = {}) {
      const behavior = pick(options.behavior, ['rejectContent', 'throwException'], 'rejectContent', `${owner}.toolInputGuardrail`);
      const message = optionalString(options.message, `${owner}.toolInputGuardrail: \`message\``) ?? rejectMessage;
      return defineToolInputGuardrail<unknown, GuardedToolCall>({
        name: options.name ?? name,
        run: async ({ toolCall }) => {
          const verdict = await inspect({ source: 'tool_input', ...toolCallSubject(toolCall) });
          if (!verdict.tripped) return Verdict.allow(verdict.info);
          return behavior === 'throwException' ? Verdict.throwException(verdict.info) : Verdict.rejectContent(message, verdict.info);
        },
      });
    },
    toolOutputGuardrail(options = {}) {
      const label = `${owner}.toolOutputGuardrail`;
      const behavior = pick(options.behavior, ['redact', 'rejectContent', 'throwException'], 'redact', label);
      const message = optionalString(options.message, `${label}: \`message\``) ?? rejectMessage;
      return defineToolOutputGuardrail<unknown, GuardedToolCall>({
        name: options.name ?? name,
        run: async ({ output, toolCall }) => {
          const verdict = await inspect({ source: 'tool_output', value: output, text: toolOutputText(toolCall, output) });
          if (!verdict.tripped) return Verdict.allow(verdict.info);
          if (behavior === 'throwException') return Verdict.throwException(verdict.info);
          if (behavior === 'redact' && verdict.redacted !== undefined) return Verdict.rejectContent(verdict.redacted, verdict.info);
          return Verdict.rejectContent(message, verdict.info);
        },
      });
    },
  };
}

function toGuardrailOutput(verdict: CheckVerdict<unknown>): { tripwireTriggered: boolean; outputInfo: unknown } {
  return { tripwireTriggered: verdict.tripped, outputInfo: verdict.info };
}

function pick<T extends string>(value: unknown, allowed: readonly T[], fallback: T, owner: string): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new UserError(`${owner}: \`behavior\` must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${JSON.stringify(value) ?? typeName(value)}.`);
}
