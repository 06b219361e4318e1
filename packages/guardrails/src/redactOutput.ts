import { UserError, type ToolGuardrailFunctionOutput } from '@baton/types';
import type { GuardrailCheck } from './check.js';
import { secretsCheck } from './checks/secrets.js';
import { piiCheck } from './checks/pii.js';
import { defineToolOutputGuardrail, type ToolOutputGuardrailDefinition } from './defineToolOutputGuardrail.js';
import { ToolGuardrailFunctionOutputFactory as Verdict } from './toolGuardrailFunctionOutputFactory.js';
import { toolOutputText, type GuardedToolCall } from './internal/toolCallSubject.js';

export interface RedactOutputOptions {
  name?: string;
  /** Checks that can redact, applied in order. Defaults to `[secretsCheck(), piiCheck()]`. */
  checks?: ReadonlyArray<GuardrailCheck<unknown>>;
}

export interface RedactOutputInfo {
  /** What each check that tripped reported. */
  redacted: Record<string, unknown>;
}

/**
 * The `redact_output` tool output guardrail: when the tool's output holds secrets or personal data,
 * the model receives the output with those parts replaced by `[REDACTED:<kind>]` (a `rejectContent`
 * with the redacted text); otherwise the output passes unchanged. It guards function tools and the
 * local tools (shell, apply-patch, computer) alike.
 */
export function redactOutput(options: RedactOutputOptions = {}): ToolOutputGuardrailDefinition<unknown, GuardedToolCall> {
  const checks = options.checks ?? [secretsCheck(), piiCheck()];
  if (!Array.isArray(checks) || checks.length === 0 || checks.some((c) => typeof c?.inspect !== 'function')) {
    throw new UserError('redactOutput: `checks` must be a non-empty array of checks (secretsCheck(), piiCheck(), ...).');
  }
  return defineToolOutputGuardrail<unknown, GuardedToolCall>({
    name: options.name ?? 'redact_output',
    run: async ({ output, toolCall }): Promise<ToolGuardrailFunctionOutput> => {
      let text = toolOutputText(toolCall, output);
      const redacted: Record<string, unknown> = {};
      for (const check of checks) {
        const verdict = await check.inspect({ source: 'tool_output', value: output, text });
        if (!verdict.tripped) continue;
        redacted[check.name] = verdict.info;
        // A check that trips without redacting (a banned topic) withholds the output altogether.
        text = verdict.redacted ?? check.rejectMessage;
      }
      const info: RedactOutputInfo = { redacted };
      return Object.keys(redacted).length === 0 ? Verdict.allow(info) : Verdict.rejectContent(text, info);
    },
  });
}
