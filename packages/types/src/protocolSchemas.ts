import { z } from 'zod';

/**
 * The protocol items as zod schemas, under the reference's names (`protocol.MessageItem`,
 * `protocol.ModelItem.parse(item)`, ...), for the items Baton implements: messages, function calls
 * and their results, reasoning and unknown items, usage. Each schema checks the shape of one item
 * of `protocol.ts`, including the reference's shell, apply-patch, computer, tool search, program
 * (Programmatic Tool Calling) and compaction items, so run states carry them. Values only: for an item type use `z.infer<typeof
 * protocol.X>` or the top-level types (`AgentInputItem`, ...).
 */

const ProviderData = z.record(z.string(), z.any());
const Status = z.enum(['in_progress', 'completed', 'incomplete']);

export const SharedBase = z.object({ providerData: ProviderData.optional() });

export const ItemBase = SharedBase.extend({ id: z.string().optional() });

export const InputText = SharedBase.extend({ type: z.literal('input_text'), text: z.string() });

const FileReference = z.object({ id: z.string() });

export const InputImage = SharedBase.extend({
  type: z.literal('input_image'),
  image: z.union([z.string(), FileReference]).optional(),
  detail: z.string().optional(),
});

export const InputFile = SharedBase.extend({
  type: z.literal('input_file'),
  file: z.union([z.string(), FileReference, z.object({ url: z.string() })]).optional(),
  filename: z.string().optional(),
});

export const OutputText = SharedBase.extend({ type: z.literal('output_text'), text: z.string() });

export const Refusal = SharedBase.extend({ type: z.literal('refusal'), refusal: z.string() });

export const AudioContent = SharedBase.extend({
  type: z.literal('audio'),
  audio: z.union([z.string(), FileReference]),
  format: z.string().nullable().optional(),
  transcript: z.string().nullable().optional(),
});

export const ImageContent = SharedBase.extend({ type: z.literal('image'), image: z.string() });

export const UserContent = z.discriminatedUnion('type', [InputText, InputImage, InputFile, AudioContent]);

export const AssistantContent = z.discriminatedUnion('type', [OutputText, Refusal, AudioContent, ImageContent]);

const Message = ItemBase.extend({ type: z.literal('message').optional() });

export const SystemMessageItem = Message.extend({ role: z.literal('system'), content: z.string() });

export const UserMessageItem = Message.extend({ role: z.literal('user'), content: z.union([z.string(), z.array(UserContent)]) });

export const AssistantMessageItem = Message.extend({ role: z.literal('assistant'), status: Status, content: z.array(AssistantContent) });

export const MessageItem = z.discriminatedUnion('role', [SystemMessageItem, UserMessageItem, AssistantMessageItem]);

/** Who invoked a tool call: the model directly, or a Programmatic Tool Calling program. */
export const ToolCaller = z.discriminatedUnion('type', [
  z.object({ type: z.literal('direct') }),
  z.object({ type: z.literal('program'), callerId: z.string() }),
]);

export const FunctionCallItem = ItemBase.extend({
  type: z.literal('function_call'),
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: Status.optional(),
  namespace: z.string().optional(),
  caller: ToolCaller.optional(),
});

export const ToolOutputText = SharedBase.extend({ type: z.literal('text'), text: z.string() });

export const ToolOutputImage = SharedBase.extend({ type: z.literal('image'), image: z.union([z.string(), FileReference]), detail: z.string().optional() });

/** A tool output: text, one text or image part, or a list of input content parts (as history keeps lists). */
export const FunctionCallResultItem = ItemBase.extend({
  type: z.literal('function_call_result'),
  callId: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
  status: Status,
  caller: ToolCaller.optional(),
  output: z.union([z.string(), z.discriminatedUnion('type', [ToolOutputText, ToolOutputImage]), z.array(UserContent)]),
});

export const ReasoningText = SharedBase.extend({ type: z.literal('reasoning_text'), text: z.string() });

export const ReasoningItem = ItemBase.extend({
  type: z.literal('reasoning'),
  content: z.array(InputText),
  rawContent: z.array(ReasoningText).optional(),
  encryptedContent: z.string().optional(),
});

/** A call the provider ran itself (a hosted tool); the provider's fields are in `providerData`. */
export const HostedToolCallItem = ItemBase.extend({
  type: z.literal('hosted_tool_call'),
  name: z.string(),
  arguments: z.string().optional(),
  status: z.string().optional(),
  output: z.string().optional(),
  caller: ToolCaller.optional(),
}).loose();

/** A program the model wrote to call tools (Programmatic Tool Calling), and its result. */
export const ProgramCallItem = ItemBase.extend({ type: z.literal('program'), callId: z.string(), code: z.string(), fingerprint: z.string() });

export const ProgramCallResultItem = ItemBase.extend({
  type: z.literal('program_output'),
  callId: z.string(),
  output: z.string(),
  status: z.enum(['completed', 'incomplete']),
});

/** A reference to a deferred tool in a tool search output. */
export const ToolReference = z.object({ type: z.literal('tool_reference'), functionName: z.string(), namespace: z.string().optional() });

const ToolSearchIds = {
  call_id: z.string().nullable().optional(),
  callId: z.string().nullable().optional(),
  execution: z.enum(['client', 'server']).optional(),
  status: z.string().optional(),
};

/** A tool search call (`arguments` are provider-defined). */
export const ToolSearchCallItem = ItemBase.extend({ type: z.literal('tool_search_call'), ...ToolSearchIds, arguments: z.unknown() });

/** A tool search's result: tool references or definitions, kept as returned. */
export const ToolSearchOutputItem = ItemBase.extend({
  type: z.literal('tool_search_output'),
  ...ToolSearchIds,
  tools: z.array(z.record(z.string(), z.any())),
  toolSearchAgentName: z.string().optional(),
  toolSearchMcpToolNames: z.array(z.string()).optional(),
});

const Point = z.object({ x: z.number(), y: z.number() });

/** One computer action, as the model sends it. */
export const ComputerAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('screenshot') }),
  z.object({ type: z.literal('click'), x: z.number(), y: z.number(), button: z.enum(['left', 'right', 'wheel', 'back', 'forward']) }),
  z.object({ type: z.literal('double_click'), x: z.number(), y: z.number() }),
  z.object({ type: z.literal('scroll'), x: z.number(), y: z.number(), scroll_x: z.number(), scroll_y: z.number() }),
  z.object({ type: z.literal('type'), text: z.string() }),
  z.object({ type: z.literal('wait') }),
  z.object({ type: z.literal('move'), x: z.number(), y: z.number() }),
  z.object({ type: z.literal('keypress'), keys: z.array(z.string()) }),
  z.object({ type: z.literal('drag'), path: z.array(Point) }),
]);

/** A computer call: one `action` (preview tool) or a batch of `actions` (GA tool); at least one of them. */
export const ComputerUseCallItem = ItemBase.extend({
  type: z.literal('computer_call'),
  callId: z.string(),
  status: Status,
  action: ComputerAction.optional(),
  actions: z.array(ComputerAction).min(1).optional(),
}).refine((item) => item.action !== undefined || (item.actions?.length ?? 0) > 0, {
  message: 'computer_call items must include action or actions.',
  path: ['action'],
});

/** A screenshot answering a computer call. */
export const ComputerCallResultItem = ItemBase.extend({
  type: z.literal('computer_call_result'),
  callId: z.string(),
  output: SharedBase.extend({ type: z.literal('computer_screenshot'), data: z.string() }),
});

export const ShellAction = z.object({
  commands: z.array(z.string()),
  timeoutMs: z.number().int().min(0).optional(),
  maxOutputLength: z.number().int().min(0).optional(),
});

export const ShellCallItem = ItemBase.extend({
  type: z.literal('shell_call'),
  callId: z.string(),
  status: Status.optional(),
  action: ShellAction,
  caller: ToolCaller.optional(),
});

export const ShellCallOutcome = z.discriminatedUnion('type', [
  z.object({ type: z.literal('timeout') }),
  z.object({ type: z.literal('exit'), exitCode: z.number().int().nullable() }),
]);

export const ShellCallOutputContent = z.object({ stdout: z.string(), stderr: z.string(), outcome: ShellCallOutcome }).loose();

export const ShellCallResultItem = ItemBase.extend({
  type: z.literal('shell_call_output'),
  callId: z.string(),
  status: Status.optional(),
  maxOutputLength: z.number().optional(),
  output: z.array(ShellCallOutputContent),
  caller: ToolCaller.optional(),
});

export const ApplyPatchOperation = z.discriminatedUnion('type', [
  z.object({ type: z.literal('create_file'), path: z.string(), diff: z.string() }),
  z.object({ type: z.literal('update_file'), path: z.string(), diff: z.string(), moveTo: z.string().min(1).optional() }),
  z.object({ type: z.literal('delete_file'), path: z.string() }),
]);

export const ApplyPatchCallItem = ItemBase.extend({
  type: z.literal('apply_patch_call'),
  callId: z.string(),
  status: z.enum(['in_progress', 'completed']),
  operation: ApplyPatchOperation,
  caller: ToolCaller.optional(),
});

export const ApplyPatchCallResultItem = ItemBase.extend({
  type: z.literal('apply_patch_call_output'),
  callId: z.string(),
  status: z.enum(['completed', 'failed']),
  output: z.string().optional(),
  caller: ToolCaller.optional(),
});

/** A compacted stretch of history: the compaction endpoint's encrypted payload. */
export const CompactionItem = ItemBase.extend({
  type: z.literal('compaction'),
  encrypted_content: z.string(),
  created_by: z.string().optional(),
});

/** An item a provider returned that Baton does not model; its other fields pass through. */
export const UnknownItem = ItemBase.extend({ type: z.literal('unknown') }).loose();

/** The tool calls a model may make. */
export const ToolCallItem = z.union([ProgramCallItem, ComputerUseCallItem, ShellCallItem, ApplyPatchCallItem, FunctionCallItem, HostedToolCallItem]);

const ToolItems = [
  ToolSearchCallItem,
  ToolSearchOutputItem,
  ProgramCallItem,
  ProgramCallResultItem,
  ComputerUseCallItem,
  ShellCallItem,
  ShellCallResultItem,
  ApplyPatchCallItem,
  ApplyPatchCallResultItem,
  CompactionItem,
] as const;

/** Anything that may be in a model's input. */
export const ModelItem = z.union([
  MessageItem,
  FunctionCallItem,
  FunctionCallResultItem,
  ReasoningItem,
  HostedToolCallItem,
  ...ToolItems,
  ComputerCallResultItem,
  UnknownItem,
]);

/** Anything a model may return. */
export const OutputModelItem = z.union([AssistantMessageItem, FunctionCallItem, FunctionCallResultItem, ReasoningItem, HostedToolCallItem, ...ToolItems, UnknownItem]);

const TokenDetails = z.record(z.string(), z.number());

/** Token counts of one model request. */
export const RequestUsageData = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
  inputTokensDetails: TokenDetails.optional(),
  outputTokensDetails: TokenDetails.optional(),
  endpoint: z.string().optional(),
});

/** Token counts of a response (one or more requests). */
export const UsageData = z.object({
  requests: z.number().optional(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
  inputTokensDetails: z.union([TokenDetails, z.array(TokenDetails)]).optional(),
  outputTokensDetails: z.union([TokenDetails, z.array(TokenDetails)]).optional(),
  requestUsageEntries: z.array(RequestUsageData).optional(),
});
