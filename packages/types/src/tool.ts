import type { FunctionCallItem } from './protocol.js';
import type { JsonObjectSchema } from './model.js';
import type { RunContextContract } from './runContext.js';
import type { ToolInputGuardrail, ToolOutputGuardrail } from './guardrail.js';
import type { RegisteredAgent } from './registry.js';
import type { RunStreamEvent } from './events.js';

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
}

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

export type Tool<TContext = unknown> = FunctionTool<TContext> | HostedTool;

/** Who may invoke a Responses API tool: the model directly, or a Programmatic Tool Calling program. */
export type ToolAllowedCaller = 'direct' | 'programmatic';

/** A non-empty set of allowed callers, without duplicates. */
export type ToolAllowedCallers = readonly [ToolAllowedCaller, ...ToolAllowedCaller[]];

/** A skill available to a local shell (the model reads it from `path`). */
export interface ShellToolLocalSkill {
  name: string;
  description: string;
  path: string;
}

export interface ShellToolSkillReference {
  type: 'skill_reference';
  skillId: string;
  version?: string;
}

export interface ShellToolInlineSkill {
  type: 'inline';
  name: string;
  description: string;
  source: { type: 'base64'; mediaType: 'application/zip'; data: string };
}

export type ShellToolContainerSkill = ShellToolSkillReference | ShellToolInlineSkill;

export type ShellToolContainerNetworkPolicy =
  | { type: 'allowlist'; allowedDomains: string[]; domainSecrets?: Array<{ domain: string; name: string; value: string }> }
  | { type: 'disabled' };

/** Commands run by the host (a `Shell`). */
export interface ShellToolLocalEnvironment {
  type: 'local';
  skills?: ShellToolLocalSkill[];
}

/** Commands run by OpenAI in a container it creates. */
export interface ShellToolContainerAutoEnvironment {
  type: 'container_auto';
  fileIds?: string[];
  memoryLimit?: '1g' | '4g' | '16g' | '64g' | null;
  networkPolicy?: ShellToolContainerNetworkPolicy;
  skills?: ShellToolContainerSkill[];
}

/** Commands run by OpenAI in an existing container. */
export interface ShellToolContainerReferenceEnvironment {
  type: 'container_reference';
  containerId: string;
}

export type ShellToolHostedEnvironment = ShellToolContainerAutoEnvironment | ShellToolContainerReferenceEnvironment;

/** Where a shell tool's commands run. */
export type ShellToolEnvironment = ShellToolLocalEnvironment | ShellToolHostedEnvironment;
