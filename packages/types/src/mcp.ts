/**
 * The Model Context Protocol server contract: what an agent needs from a server to offer its tools
 * (the reference's `MCPServer`, so a server written for it works unchanged). `@baton/mcp`
 * implements it over the official MCP SDK; core turns the listed tools into function tools.
 */
import type { RegisteredAgent } from './registry.js';
import type { RunContextContract } from './runContext.js';
import type { ToolInputGuardrail, ToolOutputGuardrail } from './guardrail.js';
import type { ToolOutputCustomDataExtractor } from './toolOutputCustomData.js';

/** A tool as an MCP server lists it (`tools/list`). */
export interface MCPTool {
  name: string;
  description?: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
  [key: string]: unknown;
}

/** One content block of a tool result: text, image, audio, a resource or a resource link. */
export interface MCPContent {
  type: string;
  [key: string]: unknown;
}

/** A `tools/call` result. */
export interface CallToolResult {
  content: MCPContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The result's content list, with the result's other fields attached (the reference's shape). */
export type CallToolResultContent = MCPContent[] & Pick<CallToolResult, 'structuredContent' | 'isError' | '_meta'>;

export interface MCPCallToolOptions {
  /** Fires when the run no longer wants the result (cancelled, a guardrail tripped). */
  signal?: AbortSignal;
}

/** What a callable tool filter sees. */
export interface MCPToolFilterContext<TContext = unknown> {
  runContext: RunContextContract<TContext>;
  agent: RegisteredAgent;
  serverName: string;
}

/** Decides per run and agent whether a listed tool is offered. */
export type MCPToolFilterCallable<TContext = unknown> = (context: MCPToolFilterContext<TContext>, tool: MCPTool) => boolean | Promise<boolean>;

/** Allow and block lists by tool name (a blocked name loses even when allowed). */
export interface MCPToolFilterStatic {
  allowedToolNames?: string[];
  blockedToolNames?: string[];
}

/** What a `toolMetaResolver` sees for each call. */
export interface MCPToolMetaContext<TContext = unknown> {
  runContext: RunContextContract<TContext>;
  serverName: string;
  toolName: string;
  arguments: Record<string, unknown> | null;
}

/** Produces the request's `_meta` for a tool call. */
export type MCPToolMetaResolver<TContext = unknown> = (
  context: MCPToolMetaContext<TContext>,
) => Record<string, unknown> | null | undefined | Promise<Record<string, unknown> | null | undefined>;

/** What a server's `customDataExtractor` is given for one call of its tools (copies of the arguments and the result's parts). */
export interface MCPToolCustomDataContext<TContext = unknown> {
  runContext: RunContextContract<TContext>;
  serverName: string;
  /** The tool's name on the server. */
  toolName: string;
  /** The name the model calls it by. */
  toolDisplayName: string;
  arguments: Record<string, unknown> | null;
  /** The result's `_meta`, if it has one. */
  resultMeta?: Record<string, unknown>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** What the model is sent (after output guardrails). */
  toolOutput: unknown;
}

/** Attaches data of your own to the output items of a server's tools (`RunToolCallOutputItem.customData`). */
export type MCPToolCustomDataExtractor<TContext = unknown> = ToolOutputCustomDataExtractor<MCPToolCustomDataContext<TContext>>;

/** Turns a failed MCP call into the text the model sees. */
export type MCPToolErrorFunction = (args: { context: RunContextContract<unknown>; error: unknown }) => string | Promise<string>;

/** What an approval function sees (Baton's addition: the reference has no approvals for local MCP tools). */
export interface MCPToolApprovalContext<TContext = unknown> {
  runContext: RunContextContract<TContext>;
  serverName: string;
  toolName: string;
  arguments: Record<string, unknown>;
  callId?: string;
}

/**
 * Which calls of a server's tools pause the run for a human decision: every call, none, calls of
 * the named tools (the shape of `hostedMcpTool`'s `requireApproval`), or as a function decides.
 */
export type MCPToolApprovalPolicy<TContext = unknown> =
  | 'always'
  | 'never'
  | { always?: { toolNames: string[] }; never?: { toolNames: string[] } }
  | ((context: MCPToolApprovalContext<TContext>) => boolean | Promise<boolean>);

export interface MCPServer {
  readonly name: string;
  /** Keep the first listing (until `invalidateToolsCache()`), instead of listing every turn. */
  cacheToolsList: boolean;
  toolFilter?: MCPToolFilterCallable<any> | MCPToolFilterStatic;
  toolMetaResolver?: MCPToolMetaResolver<any>;
  /** Guardrails checked before every call of this server's tools. */
  toolInputGuardrails?: ToolInputGuardrail<any>[];
  /** Guardrails checked after every call of this server's tools returns. */
  toolOutputGuardrails?: ToolOutputGuardrail<any>[];
  /** Send `structuredContent` (as JSON) to the model instead of the content blocks, when the result has it. */
  useStructuredContent?: boolean;
  /** Turns a failed call into the model's text; `null` fails the run instead. */
  errorFunction?: MCPToolErrorFunction | null;
  /** Attaches data of your own to each output item of this server's tools, from the whole result (its `_meta`, `structuredContent`, `isError`). */
  customDataExtractor?: MCPToolCustomDataExtractor<any>;
  /** Baton: which calls wait for a human approval (see `MCPToolApprovalPolicy`). */
  requireApproval?: MCPToolApprovalPolicy<any>;
  /**
   * Baton: whether the server is connected now. A run connects a server that says `false` before it
   * lists its tools, and closes it when the run ends (a paused run included). Leave it out to
   * manage the connection yourself, as on the reference.
   */
  readonly connected?: boolean;
  connect(): Promise<void>;
  close(): Promise<void>;
  listTools(): Promise<MCPTool[]>;
  callTool(
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
    options?: MCPCallToolOptions,
  ): Promise<CallToolResultContent>;
  /** The whole result (content, `structuredContent`, `isError`, `_meta`). */
  callToolResult?(
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
    options?: MCPCallToolOptions,
  ): Promise<CallToolResult>;
  invalidateToolsCache(): Promise<void>;
}
