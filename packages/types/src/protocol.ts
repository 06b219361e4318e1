/**
 * Protocol items: the JSON shapes exchanged with models and kept in history. They match the
 * reference SDK's shapes so items, sessions and models written for it work unchanged.
 */

import type { ShellAction, ShellCallOutputContent } from './shell.js';
import type { ApplyPatchOperation } from './editor.js';
import type { ComputerAction } from './computer.js';

/** Provider fields kept on an item as the provider sent them; \`any\` values, as the reference types them, so programs read them without casts. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProviderData = Record<string, any>;

/** Who invoked a tool call: the model directly, or a Programmatic Tool Calling program (its call id). */
export type ToolCaller = { type: 'direct' } | { type: 'program'; callerId: string };

interface SharedBase {
  providerData?: ProviderData;
}

interface ItemBase extends SharedBase {
  id?: string;
}

/** Marks where a provider may end a cached prompt prefix (the Responses API's `prompt_cache_breakpoint`). */
interface CacheBreakpointBase extends SharedBase {
  promptCacheBreakpoint?: { mode?: 'explicit' | (string & {}); [key: string]: unknown };
}

export interface InputText extends CacheBreakpointBase {
  type: 'input_text';
  text: string;
}

export interface InputImage extends CacheBreakpointBase {
  type: 'input_image';
  /** A URL, a data URL or a provider file reference. */
  image?: string | { id: string };
  detail?: 'low' | 'high' | 'auto' | (string & {});
}

export interface InputFile extends CacheBreakpointBase {
  type: 'input_file';
  file?: string | { id: string } | { url: string };
  filename?: string;
}

export interface OutputText extends SharedBase {
  type: 'output_text';
  text: string;
}

export interface Refusal extends SharedBase {
  type: 'refusal';
  refusal: string;
}

/** Audio: base64 data or a provider file reference (Chat Completions' `input_audio`, or an assistant's spoken answer). */
export interface AudioContent extends CacheBreakpointBase {
  type: 'audio';
  audio: string | { id: string };
  format?: string | null;
  transcript?: string | null;
}

/** An image an assistant message holds (base64 data). */
export interface ImageContent extends SharedBase {
  type: 'image';
  image: string;
}

export type UserContent = InputText | InputImage | InputFile | AudioContent;
export type AssistantContent = OutputText | Refusal | AudioContent | ImageContent;

export interface SystemMessageItem extends ItemBase {
  type?: 'message';
  role: 'system';
  content: string;
}

export interface UserMessageItem extends ItemBase {
  type?: 'message';
  role: 'user';
  content: string | UserContent[];
}

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface AssistantMessageItem extends ItemBase {
  type?: 'message';
  role: 'assistant';
  status: ItemStatus;
  content: AssistantContent[];
  /** Whether the message is commentary along the way or the final answer (Responses API). */
  phase?: 'commentary' | 'final_answer';
}

export type MessageItem = SystemMessageItem | UserMessageItem | AssistantMessageItem;

export interface FunctionCallItem extends ItemBase {
  type: 'function_call';
  callId: string;
  name: string;
  /** The JSON-encoded arguments exactly as the model produced them. */
  arguments: string;
  status?: ItemStatus;
  namespace?: string;
  caller?: ToolCaller;
}

export interface ToolOutputText extends SharedBase {
  type: 'text';
  text: string;
}

/**
 * An image a tool returns (the reference's \`ToolOutputImage\`): a URL or data URL, base64 or bytes
 * with a media type, or an uploaded file's id. In history it is kept as input content.
 */
export interface ToolOutputImage extends SharedBase {
  type: 'image';
  image?: string | { id: string } | { data: string | Uint8Array; mediaType?: string } | { url: string } | { fileId: string };
  detail?: 'low' | 'high' | 'auto' | (string & {});
}

/** A file a tool returns (the reference's \`ToolOutputFileContent\`): a URL or data URL, data with a media type and name, a URL, or an uploaded file's id. */
export interface ToolOutputFileContent extends SharedBase {
  type: 'file';
  file: string | { data: string | Uint8Array; mediaType: string; filename: string } | { url: string; filename?: string } | { id: string; filename?: string };
}

/**
 * A tool's output in history: text, one text or image part, or a list of content parts. A list is
 * kept as the reference keeps it, as input content (`input_text` / `input_image` / `input_file`);
 * lists of `text` / `image` parts (written by Baton before 0.2) are still read.
 */
export type FunctionCallResultOutput = string | ToolOutputText | ToolOutputImage | Array<UserContent | ToolOutputText | ToolOutputImage>;

export interface FunctionCallResultItem extends ItemBase {
  type: 'function_call_result';
  callId: string;
  name: string;
  /** The namespace of the call it answers (tool search namespaces). */
  namespace?: string;
  status: ItemStatus;
  output: FunctionCallResultOutput;
  caller?: ToolCaller;
}

export interface ReasoningItem extends ItemBase {
  type: 'reasoning';
  content: InputText[];
  rawContent?: Array<{ type: 'reasoning_text'; text: string; providerData?: ProviderData }>;
  encryptedContent?: string;
}

/**
 * A call the provider ran itself (a hosted tool: web search, file search, code interpreter, image
 * generation, a remote MCP server's listing, call or approval request / response). `name` is the
 * provider's item type (or, for MCP approvals, `mcp_approval_request` / `mcp_approval_response`);
 * the provider's fields are in `providerData`. The reference's shape.
 */
export interface HostedToolCallItem extends ItemBase {
  type: 'hosted_tool_call';
  name: string;
  arguments?: string;
  status?: string;
  output?: string;
  caller?: ToolCaller;
}

/** A program the model wrote to call tools (Programmatic Tool Calling). */
export interface ProgramCallItem extends ItemBase {
  type: 'program';
  callId: string;
  code: string;
  fingerprint: string;
}

/** The result of a program run (Programmatic Tool Calling). */
export interface ProgramCallResultItem extends ItemBase {
  type: 'program_output';
  callId: string;
  output: string;
  status: 'completed' | 'incomplete';
}

/** A tool search the model asked for: run by the provider (`server`) or by the SDK (`client`). */
export interface ToolSearchCallItem extends ItemBase {
  type: 'tool_search_call';
  call_id?: string | null;
  callId?: string | null;
  execution?: 'client' | 'server';
  /** Provider-defined: hosted search uses `{ paths, query }`. */
  arguments: unknown;
  status?: string;
}

/** A reference to a deferred tool a search loaded (`tool_reference` in tool search outputs). */
export interface ToolReference {
  type: 'tool_reference';
  functionName: string;
  namespace?: string;
}

/** What a tool search found: tool references or tool definitions, kept as returned. */
export interface ToolSearchOutputItem extends ItemBase {
  type: 'tool_search_output';
  call_id?: string | null;
  callId?: string | null;
  execution?: 'client' | 'server';
  status?: string;
  tools: Array<Record<string, any>>;
  /** SDK-only: the agent whose search this was (never sent to a provider). */
  toolSearchAgentName?: string;
  /** SDK-only: hosted MCP tool names this output established (never sent to a provider). */
  toolSearchMcpToolNames?: string[];
}

/** A computer-use call: one `action` (preview tool) or a batch of `actions` (GA tool). */
export interface ComputerUseCallItem extends ItemBase {
  type: 'computer_call';
  callId: string;
  status: ItemStatus;
  action?: ComputerAction;
  actions?: ComputerAction[];
}

/** A screenshot answering a computer call (`computer_call_output` on the wire). */
export interface ComputerCallResultItem extends ItemBase {
  type: 'computer_call_result';
  callId: string;
  output: { type: 'computer_screenshot'; data: string; providerData?: ProviderData };
}

/** A shell tool call: the commands the model wants run. */
export interface ShellCallItem extends ItemBase {
  type: 'shell_call';
  callId: string;
  status?: ItemStatus;
  action: ShellAction;
  caller?: ToolCaller;
}

/** The output of a shell tool call: one entry per command. */
export interface ShellCallResultItem extends ItemBase {
  type: 'shell_call_output';
  callId: string;
  status?: ItemStatus;
  maxOutputLength?: number;
  output: ShellCallOutputContent[];
  caller?: ToolCaller;
}

/** An apply-patch tool call: one file operation carrying a V4A diff. */
export interface ApplyPatchCallItem extends ItemBase {
  type: 'apply_patch_call';
  callId: string;
  status: 'in_progress' | 'completed';
  operation: ApplyPatchOperation;
  caller?: ToolCaller;
}

/** The outcome of an apply-patch call. */
export interface ApplyPatchCallResultItem extends ItemBase {
  type: 'apply_patch_call_output';
  callId: string;
  status: 'completed' | 'failed';
  output?: string;
  caller?: ToolCaller;
}

/** A compacted stretch of history (Responses compaction): an opaque encrypted payload. */
export interface CompactionItem extends ItemBase {
  type: 'compaction';
  encrypted_content: string;
  created_by?: string;
}

/** An item a provider returned that Baton does not model; passed through unchanged. */
export interface UnknownItem extends ItemBase {
  type: 'unknown';
}

export type AgentOutputItem =
  | AssistantMessageItem
  | FunctionCallItem
  | FunctionCallResultItem
  | ReasoningItem
  | HostedToolCallItem
  | ToolSearchCallItem
  | ToolSearchOutputItem
  | ProgramCallItem
  | ProgramCallResultItem
  | ComputerUseCallItem
  | ShellCallItem
  | ShellCallResultItem
  | ApplyPatchCallItem
  | ApplyPatchCallResultItem
  | CompactionItem
  | UnknownItem;

export type AgentInputItem =
  | SystemMessageItem
  | UserMessageItem
  | AssistantMessageItem
  | FunctionCallItem
  | FunctionCallResultItem
  | ReasoningItem
  | HostedToolCallItem
  | ToolSearchCallItem
  | ToolSearchOutputItem
  | ProgramCallItem
  | ProgramCallResultItem
  | ComputerUseCallItem
  | ComputerCallResultItem
  | ShellCallItem
  | ShellCallResultItem
  | ApplyPatchCallItem
  | ApplyPatchCallResultItem
  | CompactionItem
  | UnknownItem;

/** Run input: a user string or a list of protocol items. */
export type RunInput = string | AgentInputItem[];
