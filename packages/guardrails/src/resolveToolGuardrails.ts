import type { ToolInputGuardrail, ToolOutputGuardrail } from '@baton/types';
import { defineToolInputGuardrail, type DefineToolInputGuardrailOptions, type ToolInputGuardrailDefinition } from './defineToolInputGuardrail.js';
import { defineToolOutputGuardrail, type DefineToolOutputGuardrailOptions, type ToolOutputGuardrailDefinition } from './defineToolOutputGuardrail.js';

/** Tool input guardrails as defined ones: a definition is kept, a plain `{ name, run }` is defined (and checked). */
export function resolveToolInputGuardrails<TContext = unknown>(
  guardrails: ReadonlyArray<ToolInputGuardrail<TContext> | DefineToolInputGuardrailOptions<TContext>> | undefined,
): Array<ToolInputGuardrail<TContext> | ToolInputGuardrailDefinition<TContext>> {
  return (guardrails ?? []).map((guardrail) =>
    (guardrail as ToolInputGuardrail<TContext>).type === 'tool_input' ? (guardrail as ToolInputGuardrail<TContext>) : defineToolInputGuardrail(guardrail as DefineToolInputGuardrailOptions<TContext>),
  );
}

/** Tool output guardrails as defined ones: a definition is kept, a plain `{ name, run }` is defined (and checked). */
export function resolveToolOutputGuardrails<TContext = unknown>(
  guardrails: ReadonlyArray<ToolOutputGuardrail<TContext> | DefineToolOutputGuardrailOptions<TContext>> | undefined,
): Array<ToolOutputGuardrail<TContext> | ToolOutputGuardrailDefinition<TContext>> {
  return (guardrails ?? []).map((guardrail) =>
    (guardrail as ToolOutputGuardrail<TContext>).type === 'tool_output'
      ? (guardrail as ToolOutputGuardrail<TContext>)
      : defineToolOutputGuardrail(guardrail as DefineToolOutputGuardrailOptions<TContext>),
  );
}
