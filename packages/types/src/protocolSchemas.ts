import { z } from 'zod';

/**
 * The protocol items as zod schemas, under the reference's names (`protocol.MessageItem`,
 * `protocol.ModelItem.parse(item)`, ...), for the items Baton implements: messages, function calls
 * and their results, reasoning and unknown items, usage. Each schema checks the shape of one item
 * of `protocol.ts`; the hosted, computer, shell and apply-patch items of the reference are not
 * here because Baton does not run those tools. Values only: for an item type use `z.infer<typeof
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

export const UserContent = z.discriminatedUnion('type', [InputText, InputImage, InputFile]);

export const AssistantContent = z.discriminatedUnion('type', [OutputText, Refusal]);

const Message = ItemBase.extend({ type: z.literal('message').optional() });

export const SystemMessageItem = Message.extend({ role: z.literal('system'), content: z.string() });

export const UserMessageItem = Message.extend({ role: z.literal('user'), content: z.union([z.string(), z.array(UserContent)]) });

export const AssistantMessageItem = Message.extend({ role: z.literal('assistant'), status: Status, content: z.array(AssistantContent) });

export const MessageItem = z.discriminatedUnion('role', [SystemMessageItem, UserMessageItem, AssistantMessageItem]);

export const FunctionCallItem = ItemBase.extend({
  type: z.literal('function_call'),
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: Status.optional(),
  namespace: z.string().optional(),
});

export const ToolOutputText = SharedBase.extend({ type: z.literal('text'), text: z.string() });

export const ToolOutputImage = SharedBase.extend({ type: z.literal('image'), image: z.union([z.string(), FileReference]), detail: z.string().optional() });

/** A tool output: text, one text or image part, or a list of input content parts (as history keeps lists). */
export const FunctionCallResultItem = ItemBase.extend({
  type: z.literal('function_call_result'),
  callId: z.string(),
  name: z.string(),
  status: Status,
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
}).loose();

/** An item a provider returned that Baton does not model; its other fields pass through. */
export const UnknownItem = ItemBase.extend({ type: z.literal('unknown') }).loose();

/** Anything that may be in a model's input. */
export const ModelItem = z.union([MessageItem, FunctionCallItem, FunctionCallResultItem, ReasoningItem, HostedToolCallItem, UnknownItem]);

/** Anything a model may return. */
export const OutputModelItem = z.union([AssistantMessageItem, FunctionCallItem, FunctionCallResultItem, ReasoningItem, HostedToolCallItem, UnknownItem]);

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
