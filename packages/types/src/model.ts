import type { AgentInputItem, AgentOutputItem } from './protocol.js';
import type { ModelSettings } from './modelSettings.js';
import type { ModelRetryAdvice } from './modelRetry.js';
import type { Usage, UsageData } from './usage.js';
import type { ModelStreamEvent } from './modelStreamEvent.js';
import type { ComputerEnvironment } from './computer.js';

/** A JSON schema object as sent to a model (for tool parameters and structured output). */
export type JsonObjectSchema = {
  type: 'object';
  properties: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean | Record<string, unknown>;
  [key: string]: unknown;
};

/** A function tool as the model sees it. */
export interface SerializedFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonObjectSchema;
  strict: boolean;
  /** Responses API only: the tool stays hidden until a tool search loads it. */
  deferLoading?: boolean;
  /** Provider-specific metadata sent with the definition. */
  providerData?: Record<string, unknown>;
  /** Responses API only: who may call it (`direct`, `programmatic`). */
  allowedCallers?: ToolAllowedCallers;
  /** Responses API only: the schema of the JSON a string output encodes. */
  outputSchema?: JsonObjectSchema;
  /** Responses API only: the namespace grouping related tools (tool search). */
  namespace?: string;
  /** Responses API only: the namespace's description, shared by its tools (required with `namespace`). */
  namespaceDescription?: string;
}

/** A computer-use tool as the model sees it: the display, when the computer states it. */
export interface SerializedComputerTool {
  type: 'computer';
  name: string;
  environment?: ComputerEnvironment;
  dimensions?: [number, number];
}

/** A shell tool as the model sees it: where its commands run (local by default). */
export interface SerializedShellTool {
  type: 'shell';
  name: string;
  environment?: ShellToolEnvironment;
  allowedCallers?: ToolAllowedCallers;
}

/** An apply-patch tool as the model sees it. */
export interface SerializedApplyPatchTool {
  type: 'apply_patch';
  name: string;
  allowedCallers?: ToolAllowedCallers;
}

/** A tool the provider runs itself; its definition is in `providerData`. */
export interface SerializedHostedTool {
  type: 'hosted_tool';
  name: string;
  providerData?: Record<string, any>;
}

/** Any tool definition a provider may receive; providers reject types they do not support. */
export type SerializedTool =
  | SerializedFunctionTool
  | SerializedComputerTool
  | SerializedShellTool
  | SerializedApplyPatchTool
  | SerializedHostedTool
  | { type: string; name: string; [key: string]: unknown };

/** A handoff as the model sees it: offered as a function tool. */
export interface SerializedHandoff {
  toolName: string;
  toolDescription: string;
  inputJsonSchema: JsonObjectSchema;
  strictJsonSchema: boolean;
}

/** Structured output: a named strict JSON schema, or plain text. */
export type SerializedOutputType =
  | 'text'
  | { type: 'json_schema'; name: string; strict: boolean; schema: JsonObjectSchema };

export interface ModelRequest {
  systemInstructions?: string;
  input: string | AgentInputItem[];
  previousResponseId?: string;
  conversationId?: string;
  modelSettings: ModelSettings;
  tools: SerializedTool[];
  outputType: SerializedOutputType;
  handoffs: SerializedHandoff[];
  tracing: boolean | 'enabled_without_data';
  /** Fires when the run no longer wants this response (cancel, guardrail trip, timeout). */
  signal?: AbortSignal;
  /** A stored prompt template (Responses API), as the reference's `ModelRequest.prompt`. */
  prompt?: ModelPrompt;
  /** With a prompt: send the model name anyway (the prompt's own model is used otherwise). */
  overridePromptModel?: boolean;
  /** The caller set the tools list on purpose (even empty), so a prompt's tools are not used. */
  toolsExplicitlyProvided?: boolean;
  /** What the runner tells the model besides the request proper (the reference's `_internal`). */
  _internal?: ModelRequestInternals;
}

export interface ModelRequestInternals {
  /** The reasoning effort in `modelSettings` is the model's default, not one the caller chose. */
  reasoningEffortImplicit?: boolean;
}

/** A stored prompt: its id, optional version, and variables (text or input content). */
export interface ModelPrompt {
  promptId: string;
  version?: string;
  variables?: Record<string, unknown>;
}

export interface ModelResponse {
  usage: Usage | UsageData;
  output: AgentOutputItem[];
  responseId?: string;
  requestId?: string;
  providerData?: Record<string, unknown>;
  /** The provider's usage object as sent (a detached copy), with `modelSettings.preserveRawUsage`. */
  rawUsage?: Record<string, unknown>;
}

/**
 * A model. The same shape as the reference SDK's `Model`, so a model written for it works unchanged.
 */
export interface Model {
  getResponse(request: ModelRequest): Promise<ModelResponse>;
  getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /** The provider's view of a failed request, for `modelSettings.retry.policy`. */
  getRetryAdvice?(args: ModelRetryAdviceRequest): ModelRetryAdvice | undefined | Promise<ModelRetryAdvice | undefined>;
  /**
   * The span a tracing package records for each call: `'response'` (a Responses-style API: the
   * response id) or `'generation'` (model, settings, usage, and with sensitive data the input and
   * output). A model that does not say records none, as in the reference (where providers make
   * these spans themselves).
   */
  readonly traceSpanType?: 'response' | 'generation';
  /**
   * The model sends an agent's stored prompt template and lets the template choose the model when
   * the run names none (the Responses API): the runner then adds no default settings of its own.
   */
  readonly supportsPromptModelSelection?: boolean;
  /** The model's name, for traces (`gen_ai.request.model`). */
  readonly modelName?: string;
}

export interface ModelRetryAdviceRequest {
  request: ModelRequest;
  error: unknown;
  stream: boolean;
  /** 1-based number of the failed attempt. */
  attempt: number;
}

/** Resolves model names (for example `'gpt-4.1'`) to models. */
export interface ModelProvider {
  getModel(modelName?: string): Model | Promise<Model>;
}

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
