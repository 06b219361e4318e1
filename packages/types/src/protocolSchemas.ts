import { z } from 'zod';

/**
 * The protocol items as zod schemas, under the reference's names (`protocol.MessageItem`,
 * `protocol.ModelItem.parse(item)`, ...), for the items Baton implements: messages, function calls
 * and their results, reasoning and unknown items, usage. Each schema checks the shape of one item
 * of `protocol.ts`; the hosted, computer, shell and apply-patch items of the reference are not
 * here because Baton does not run those tools.
 */

const ProviderData = z.record(z.string(), z.any());
const Status = z.enum(['in_progress', 'completed', 'incomplete']);

export const SharedBase = z.object({ providerData: ProviderData.optional() });
export type SharedBase = z.infer<typeof SharedBase>;

export const ItemBase = SharedBase.extend({ id: z.string().optional() });
export type ItemBase = z.infer<typeof ItemBase>;

export const InputText = SharedBase.extend({ type: z.literal('input_text'), text: z.string() });
export type InputText = z.infer<typeof InputText>;

const FileReference = z.object({ id: z.string() });

export const InputImage = SharedBase.extend({
  type: z.literal('input_image'),
  image: z.union([z.string(), FileReference]).optional(),
  detail: z.string().optional(),
});
export type InputImage = z.infer<typeof InputImage>;

export const InputFile = SharedBase.extend({
  type: z.literal('input_file'),
  file: z.union([z.string(), FileReference, z.object({ url: z.string() })]).optional(),
  filename: z.string().optional(),
});
export type InputFile = z.infer<typeof InputFile>;

export const OutputText = SharedBase.extend({ type: z.literal('output_text'), text: z.string() });
export type OutputText = z.infer<typeof OutputText>;

export const Refusal = SharedBase.extend({ type: z.literal('refusal'), refusal: z.string() });
export type Refusal = z.infer<typeof Refusal>;

export const UserContent = z.discriminatedUnion('type', [InputText, InputImage, InputFile]);
export type UserContent = z.infer<typeof UserContent>;

export const AssistantContent = z.discriminatedUnion('type', [OutputText, Refusal]);
export type AssistantContent = z.infer<typeof AssistantContent>;

const Message = ItemBase.extend({ type: z.literal('message').optional() });

export const SystemMessageItem = Message.extend({ role: z.literal('system'), content: z.string() });
export type SystemMessageItem = z.infer<typeof SystemMessageItem>;

export const UserMessageItem = Message.extend({ role: z.literal('user'), content: z.union([z.string(), z.array(UserContent)]) });
export type UserMessageItem = z.infer<typeof UserMessageItem>;

export const AssistantMessageItem = Message.extend({ role: z.literal('assistant'), status: Status, content: z.array(AssistantContent) });
export type AssistantMessageItem = z.infer<typeof AssistantMessageItem>;

export const MessageItem = z.discriminatedUnion('role', [SystemMessageItem, UserMessageItem, AssistantMessageItem]);
export type MessageItem = z.infer<typeof MessageItem>;

export const FunctionCallItem = ItemBase.extend({
  type: z.literal('function_call'),
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: Status.optional(),
  namespace: z.string().optional(),
});
export type FunctionCallItem = z.infer<typeof FunctionCallItem>;

export const ToolOutputText = SharedBase.extend({ type: z.literal('text'), text: z.string() });
export type ToolOutputText = z.infer<typeof ToolOutputText>;

export const ToolOutputImage = SharedBase.extend({ type: z.literal('image'), image: z.union([z.string(), FileReference]), detail: z.string().optional() });
export type ToolOutputImage = z.infer<typeof ToolOutputImage>;

/** A tool output: text, one text or image part, or a list of input content parts (as history keeps lists). */
export const FunctionCallResultItem = ItemBase.extend({
  type: z.literal('function_call_result'),
  callId: z.string(),
  name: z.string(),
  status: Status,
  output: z.union([z.string(), z.discriminatedUnion('type', [ToolOutputText, ToolOutputImage]), z.array(UserContent)]),
});
export type FunctionCallResultItem = z.infer<typeof FunctionCallResultItem>;

export const ReasoningText = SharedBase.extend({ type: z.literal('reasoning_text'), text: z.string() });
export type ReasoningText = z.infer<typeof ReasoningText>;

export const ReasoningItem = ItemBase.extend({
  type: z.literal('reasoning'),
  content: z.array(InputText),
  rawContent: z.array(ReasoningText).optional(),
  encryptedContent: z.string().optional(),
});
export type ReasoningItem = z.infer<typeof ReasoningItem>;

/** An item a provider returned that Baton does not model; its other fields pass through. */
export const UnknownItem = ItemBase.extend({ type: z.literal('unknown') }).loose();
export type UnknownItem = z.infer<typeof UnknownItem>;

/** Anything that may be in a model's input. */
export const ModelItem = z.union([MessageItem, FunctionCallItem, FunctionCallResultItem, ReasoningItem, UnknownItem]);
export type ModelItem = z.infer<typeof ModelItem>;

/** Anything a model may return. */
export const OutputModelItem = z.union([AssistantMessageItem, FunctionCallItem, FunctionCallResultItem, ReasoningItem, UnknownItem]);
export type OutputModelItem = z.infer<typeof OutputModelItem>;

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
export type RequestUsageData = z.infer<typeof RequestUsageData>;

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
export type UsageData = z.infer<typeof UsageData>;
