import {
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
  type ToolGuardrailFunctionOutput,
  type ToolInputGuardrail,
  type ToolInputGuardrailData,
  type ToolInputGuardrailResult,
  type ToolOutputGuardrail,
  type ToolOutputGuardrailResult,
} from '@baton/types';
import { settle, type GuardrailReturn } from './internal/guardrailReturn.js';

export interface RunToolInputGuardrailsOptions<TContext = unknown> extends ToolInputGuardrailData<TContext> {
  guardrails?: ReadonlyArray<ToolInputGuardrail<TContext>> | undefined;
  /** Receives each guardrail's result as it finishes. */
  onResult?: ((result: ToolInputGuardrailResult) => void) | undefined;
}

export interface RunToolOutputGuardrailsOptions<TContext = unknown> extends ToolInputGuardrailData<TContext> {
  guardrails?: ReadonlyArray<ToolOutputGuardrail<TContext>> | undefined;
  /** The tool's output, as the guardrails see it. */
  toolOutput: unknown;
  onResult?: ((result: ToolOutputGuardrailResult) => void) | undefined;
}

/**
 * Runs a tool's input guardrails outside a run, in order, as a run does: the first `rejectContent`
 * stops with its message; `throwException` throws `ToolInputGuardrailTripwireTriggered`.
 */
export async function runToolInputGuardrails<TContext = unknown>(
  options: RunToolInputGuardrailsOptions<TContext>,
): Promise<{ type: 'allow' } | { type: 'reject'; message: string }> {
  const { guardrails, onResult, context, agent, toolCall } = options;
  for (const guardrail of guardrails ?? []) {
    const output = withBehavior(await settle(guardrail.run({ context, agent, toolCall }) as GuardrailReturn<ToolGuardrailFunctionOutput>));
    const result: ToolInputGuardrailResult = { guardrail: { type: 'tool_input', name: guardrail.name }, output };
    onResult?.(result);
    if (output.behavior.type === 'rejectContent') return { type: 'reject', message: output.behavior.message };
    if (output.behavior.type === 'throwException') throw new ToolInputGuardrailTripwireTriggered(`Tool input guardrail triggered: ${guardrail.name}`, result);
  }
  return { type: 'allow' };
}

/**
 * Runs a tool's output guardrails outside a run, in order, as a run does: the first
 * `rejectContent` replaces the output with its message; `throwException` throws
 * `ToolOutputGuardrailTripwireTriggered`. Returns the output the model would see.
 */
export async function runToolOutputGuardrails<TContext = unknown>(options: RunToolOutputGuardrailsOptions<TContext>): Promise<unknown> {
  const { guardrails, onResult, context, agent, toolCall, toolOutput } = options;
  for (const guardrail of guardrails ?? []) {
    const output = withBehavior(await settle(guardrail.run({ context, agent, toolCall, output: toolOutput }) as GuardrailReturn<ToolGuardrailFunctionOutput>));
    const result: ToolOutputGuardrailResult = { guardrail: { type: 'tool_output', name: guardrail.name }, output };
    onResult?.(result);
    if (output.behavior.type === 'rejectContent') return output.behavior.message;
    if (output.behavior.type === 'throwException') throw new ToolOutputGuardrailTripwireTriggered(`Tool output guardrail triggered: ${guardrail.name}`, result);
  }
  return toolOutput;
}

/** A verdict without a behavior allows, as in a run. */
function withBehavior(output: ToolGuardrailFunctionOutput): ToolGuardrailFunctionOutput & { behavior: NonNullable<ToolGuardrailFunctionOutput['behavior']> } {
  return { ...output, behavior: output.behavior ?? { type: 'allow' } };
}
