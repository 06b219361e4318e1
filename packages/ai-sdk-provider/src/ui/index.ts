/**
 * @baton/ai-sdk-provider/ui: a run's stream for the Vercel AI SDK's UI (`useChat`), the reference's
 * `@openai/agents-extensions/ai-sdk-ui`. Depends on `@baton/types` only.
 */
export {
  createAiSdkUiMessageStream,
  createAiSdkUiMessageStreamResponse,
  type AiSdkUiMessageStreamHeaders,
  type AiSdkUiMessageStreamOptions,
  type AiSdkUiMessageStreamResponseOptions,
  type AiSdkUiMessageStreamSource,
} from './uiMessageStream.js';
export { createAiSdkTextStreamResponse, type AiSdkTextStreamHeaders, type AiSdkTextStreamResponseOptions, type AiSdkTextStreamSource } from './textStream.js';
export type { AiSdkToolProgress, AiSdkUiMessageChunk } from './uiMessageChunk.js';
export {
  aiSdkApprovalResponses,
  applyAiSdkApprovalResponses,
  type AiSdkApprovalResponse,
  type AiSdkApprovalTarget,
  type ApplyAiSdkApprovalResponsesOptions,
} from './approvalResponses.js';
export {
  createAiSdkChatRoute,
  type AiSdkChatPendingApproval,
  type AiSdkChatRoute,
  type AiSdkChatRouteOptions,
  type AiSdkChatRun,
  type AiSdkChatRunContext,
  type AiSdkChatRunStore,
  type AiSdkChatStoredRun,
} from './chatRoute.js';
export { AiSdkChatError, type AiSdkChatErrorReason } from './aiSdkChatError.js';
export { aiSdkUiMessagesFromItems, type AiSdkUiMessage, type AiSdkUiMessagePart, type AiSdkUiMessagesFromItemsOptions } from './uiMessagesFromItems.js';
