import type { FunctionCallItem, FunctionCallResultItem } from './protocol.js';
import type { JsonObjectSchema, ToolAllowedCallers } from './model.js';
import type { RunContextContract } from './runContext.js';
import type { ToolInputGuardrail, ToolOutputGuardrail } from './guardrail.js';
import type { RegisteredAgent } from './registry.js';
import type { RunStreamEvent } from './events.js';
import type { ApplyPatchTool, ComputerTool, ShellTool } from './localTools.js';
import type { ToolOutputCustomDataExtractor } from './toolOutputCustomData.js';

/** A progress notification a streaming tool sends to the caller; it never enters history. */
export interface ToolNotification {
  type: 'notify';
  data: unknown;
  tag?: string;
}

/** What a tool may emit while it runs: a notification, or an event of a run it drives (nested agent). */
export type ToolEmission = ToolNotification | RunStreamEvent;

/** Per-call information the runner hands to a tool. */
export interface ToolCallDetails {
  toolCall: FunctionCallItem;
  /** Fires when the run is cancelled or a guardrail trips while the tool runs. */
  signal: AbortSignal;
  /**
   * Sends an event to the run's stream (wrapped with this call's tool name and id). Resolves once the
   * stream accepted it, so a slow consumer slows the tool. In a non-streamed run the event is dropped.
   */
  emit: (event: ToolEmission) => Promise<void>;
  /**
   * The id of the run making the call (kept by a resumed run): with `toolCall.callId`, a key a tool
   * with outside effects can deduplicate on (a durable run may invoke the call in flight again).
   */
  runId?: string;
  /** For tools that drive a nested run that paused: its serialized state, as it was when it paused. */
  resumeState?: string;
}

/** Thrown (by `invoke`) when the model's arguments are not valid JSON or fail the schema. */
export interface InvalidToolInputLike extends Error {
  readonly name: 'InvalidToolInputError';
}

/**
 * The function-tool contract. `invoke` receives the model's raw JSON arguments; it validates them
 * (throwing `InvalidToolInputError` when they are invalid) and returns the tool's output.
 */
export interface FunctionTool<TContext = unknown> {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonObjectSchema;
  strict: boolean;
  /** `details` may be left out (or partial) when calling a tool outside a run, as in the reference. */
  invoke(runContext: RunContextContract<TContext>, input: string, details?: Partial<ToolCallDetails>): Promise<unknown>;
  /** Whether this call must be approved by a human before it runs. */
  needsApproval(runContext: RunContextContract<TContext>, input: unknown, callId?: string): Promise<boolean>;
  /** Whether the tool is offered to the model this turn. */
  isEnabled(runContext: RunContextContract<TContext>, agent: RegisteredAgent): Promise<boolean>;
  inputGuardrails?: ToolInputGuardrail<TContext>[];
  outputGuardrails?: ToolOutputGuardrail<TContext>[];
  /** Calls of this tool stream events (`tool_stream_start_event` / `tool_stream_end_event` frame them). */
  streaming?: boolean;
  /** Set on a tool an MCP server provides: the server's name and the tool's name there. */
  mcp?: { server: string; toolName: string };
  /** Responses API only: offered unloaded, for tool search to load (`tool({ deferLoading: true })`). */
  deferLoading?: boolean;
  /** Responses API only: who may call the tool: the model itself (`direct`, the default) and/or a program it runs (`programmatic`). */
  allowedCallers?: ToolAllowedCallers;
  /** Responses API only: the namespace `toolNamespace()` put the tool in; the model calls it as `namespace.name`. */
  namespace?: string;
  /** The namespace's description (required with `namespace`). */
  namespaceDescription?: string;
  /**
   * Attaches data of your own to each output item of this tool (`RunToolCallOutputItem.customData`),
   * never sent to the model. (A method, so a tool typed for one context is still a tool of a run
   * with another, as the tool's other callbacks are.)
   */
  customDataExtractor?(context: FunctionToolCustomDataContext<TContext>): ReturnType<FunctionToolCustomDataExtractor<TContext>>;
}

/**
 * What a function tool's `customDataExtractor` is given, once the call's output is final (after
 * output guardrails). The call, input, output and raw item are copies: changing them changes nothing.
 */
export interface FunctionToolCustomDataContext<TContext = unknown, TResult = unknown> {
  runContext: RunContextContract<TContext>;
  /** The tool (any context: a tool typed for one context still serves runs of another). */
  tool: FunctionTool<any>;
  /** The call (its `arguments` empty when they were invalid and tool data is not logged). */
  toolCall: FunctionCallItem;
  /** The arguments as the tool's `execute` received them (parsed and validated); undefined when it did not run. */
  input: unknown;
  /** What the model is sent: the tool's result, its error function's answer, or a guardrail's replacement. */
  output: TResult;
  rawItem: FunctionCallResultItem;
}

export type FunctionToolCustomDataExtractor<TContext = unknown, TResult = unknown> = ToolOutputCustomDataExtractor<FunctionToolCustomDataContext<TContext, TResult>>;

/**
 * A tool the provider runs itself (web search, file search, code interpreter, image generation, a
 * remote MCP server): its definition is passed through to the provider in `providerData`. The
 * reference's shape; providers that cannot run it reject it with a `UserError` naming it.
 */
export interface HostedTool {
  type: 'hosted_tool';
  name: string;
  providerData?: Record<string, any>;
}

/** Every tool an agent may list: function tools, hosted tools, and the local shell, apply-patch and computer tools. */
export type Tool<TContext = unknown> = FunctionTool<TContext> | HostedTool | ShellTool | ApplyPatchTool | ComputerTool<TContext, any>;
