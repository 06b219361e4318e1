/**
 * Protocol items: the JSON shapes exchanged with models and kept in history. They match the
 * reference SDK's shapes so items, sessions and models written for it work unchanged.
 */

/** Provider-specific extra data carried through untouched. */
export type ProviderData = Record<string, unknown>;

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

export type UserContent = InputText | InputImage | InputFile;
export type AssistantContent = OutputText | Refusal;

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
}

export interface ToolOutputText extends SharedBase {
  type: 'text';
  text: string;
}

export interface ToolOutputImage extends SharedBase {
  type: 'image';
  image: string | { id: string };
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
  status: ItemStatus;
  output: FunctionCallResultOutput;
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
}

/** An item a provider returned that Baton does not model; passed through unchanged. */
export interface UnknownItem extends ItemBase {
  type: 'unknown';
}

export type AgentOutputItem = AssistantMessageItem | FunctionCallItem | FunctionCallResultItem | ReasoningItem | HostedToolCallItem | UnknownItem;

export type AgentInputItem =
  | SystemMessageItem
  | UserMessageItem
  | AssistantMessageItem
  | FunctionCallItem
  | FunctionCallResultItem
  | ReasoningItem
  | HostedToolCallItem
  | UnknownItem;

/** Run input: a user string or a list of protocol items. */
export type RunInput = string | AgentInputItem[];
