import type { AgentInputItem, AgentOutputItem, FunctionCallItem } from './protocol.js';
import type { ModelResponse } from './model.js';
import type { RunContextContract } from './runContext.js';
import type { RegisteredAgent } from './registry.js';

type MaybePromise<T> = T | Promise<T>;

/** What an agent guardrail returns. */
export interface GuardrailFunctionOutput {
  tripwireTriggered: boolean;
  outputInfo?: unknown;
}

export interface InputGuardrailFunctionArgs<TContext = unknown> {
  agent: RegisteredAgent;
  input: string | AgentInputItem[];
  context: RunContextContract<TContext>;
}

/** Checks the run input. Parallel (the default) guardrails run beside the first model call. */
export interface InputGuardrail<TContext = unknown> {
  name: string;
  execute: (args: InputGuardrailFunctionArgs<TContext>) => MaybePromise<GuardrailFunctionOutput>;
  /** `false` makes it blocking: it finishes before the model is called. Defaults to `true`. */
  runInParallel?: boolean;
  /** Optional bound on how long it may take. */
  timeoutMs?: number;
}

export interface InputGuardrailResult {
  guardrail: { type: 'input'; name: string };
  output: GuardrailFunctionOutput;
}

export interface OutputGuardrailDetails {
  modelResponse?: ModelResponse;
  output?: AgentOutputItem[];
}

/**
 * The value an output guardrail checks, for the output type it is given (as the reference types
 * it): `'text'` gives a string, a zod / Standard Schema gives its output type, anything else is
 * taken as the value's own type.
 */
export type GuardrailOutputValue<TOutput> = TOutput extends 'text'
  ? string
  : TOutput extends { readonly '~standard': { readonly types?: { readonly output: infer O } | undefined } }
    ? O
    : TOutput;

export interface OutputGuardrailFunctionArgs<TContext = unknown, TOutput = unknown> {
  agent: RegisteredAgent;
  agentOutput: GuardrailOutputValue<TOutput>;
  context: RunContextContract<TContext>;
  details?: OutputGuardrailDetails;
}

/** Checks the final output of the agent that produced it. Type parameters in the reference's order. */
export interface OutputGuardrail<TOutput = unknown, TContext = unknown> {
  name: string;
  execute: (args: OutputGuardrailFunctionArgs<TContext, TOutput>) => MaybePromise<GuardrailFunctionOutput>;
  timeoutMs?: number;
}

export interface OutputGuardrailResult<TOutput = unknown> {
  guardrail: { type: 'output'; name: string };
  agentOutput: GuardrailOutputValue<TOutput>;
  agent: RegisteredAgent;
  output: GuardrailFunctionOutput;
}

/** What a tool guardrail decides. */
export type ToolGuardrailBehavior =
  | { type: 'allow' }
  | { type: 'rejectContent'; message: string }
  | { type: 'throwException' };

export interface ToolGuardrailFunctionOutput {
  behavior: ToolGuardrailBehavior;
  outputInfo?: unknown;
}

/**
 * What a tool guardrail sees. `toolCall` is the call it checks: a function call, or for a local
 * tool's guardrails (Baton: `shellTool`, `applyPatchTool`, `computerTool` take them too) that
 * tool's call item (`ShellCallItem`, `ApplyPatchCallItem`, `ComputerUseCallItem`).
 */
export interface ToolInputGuardrailData<TContext = unknown, TCall = FunctionCallItem> {
  context: RunContextContract<TContext>;
  agent: RegisteredAgent;
  toolCall: TCall;
}

export interface ToolOutputGuardrailData<TContext = unknown, TCall = FunctionCallItem> extends ToolInputGuardrailData<TContext, TCall> {
  /** The tool's raw return value (a local tool's: its outputs, the editor's message, the screenshot). */
  output: unknown;
}

export interface ToolInputGuardrail<TContext = unknown, TCall = FunctionCallItem> {
  type?: 'tool_input';
  name: string;
  run: (data: ToolInputGuardrailData<TContext, TCall>) => MaybePromise<ToolGuardrailFunctionOutput>;
}

export interface ToolOutputGuardrail<TContext = unknown, TCall = FunctionCallItem> {
  type?: 'tool_output';
  name: string;
  run: (data: ToolOutputGuardrailData<TContext, TCall>) => MaybePromise<ToolGuardrailFunctionOutput>;
}

export interface ToolInputGuardrailResult {
  guardrail: { type: 'tool_input'; name: string };
  output: ToolGuardrailFunctionOutput;
}

export interface ToolOutputGuardrailResult {
  guardrail: { type: 'tool_output'; name: string };
  output: ToolGuardrailFunctionOutput;
}
