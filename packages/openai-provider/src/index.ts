/**
 * @baton/openai-provider: Baton models on the official `openai` client, for OpenAI and any
 * OpenAI-compatible endpoint. Depends on `@baton/types` only (never on `@baton/core`).
 */
export { OpenAIProvider, type OpenAIProviderOptions } from './openaiProvider.js';
export { OpenAIResponsesModel } from './openaiResponsesModel.js';
export { OpenAIResponsesWSModel, type OpenAIResponsesWSModelOptions } from './openaiResponsesWSModel.js';
export { OpenAIChatCompletionsModel, type OpenAIChatCompletionsModelOptions } from './openaiChatCompletionsModel.js';
export {
  webSearchTool,
  fileSearchTool,
  codeInterpreterTool,
  imageGenerationTool,
  programmaticToolCallingTool,
  toolSearchTool,
  type ToolSearchToolOptions,
  type WebSearchToolOptions,
  type FileSearchToolOptions,
  type CodeInterpreterToolOptions,
  type ImageGenerationToolOptions,
} from './hostedTools.js';
export {
  OpenAIProviderError,
  isOpenAIProviderError,
  type OpenAIApi,
  type OpenAIProviderErrorDetails,
  type OpenAIProviderErrorReason,
} from './openaiProviderError.js';
export { OpenAIResponseError, CHAT_COMPLETIONS_EMPTY_TRUNCATION_ERROR, type OpenAIResponseTerminal } from './openaiResponseError.js';
export { CONTENT_FILTER_REFUSAL_MESSAGE } from './internal/chat/chatOutput.js';
export {
  DEFAULT_OPENAI_API,
  DEFAULT_OPENAI_MODEL,
  getDefaultOpenAIClient,
  getDefaultOpenAIKey,
  getDefaultOpenAIModel,
  getOpenAIAPI,
  getOpenAIResponsesTransport,
  setDefaultOpenAIClient,
  setDefaultOpenAIKey,
  setOpenAIAPI,
  setOpenAIResponsesTransport,
  type OpenAIResponsesTransport,
} from './defaults.js';
export { DEFAULT_RETRY_POLICY, MAX_RETRY_AFTER_MS, type ProviderRetryPolicy } from './internal/retryPolicy.js';
export {
  OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE,
  OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE,
  isOpenAIChatCompletionsRawModelStreamEvent,
  isOpenAIResponsesRawModelStreamEvent,
  type OpenAIRawModelEventSource,
  type OpenAIResponsesRawModelStreamEvent,
  type OpenAIChatCompletionsRawModelStreamEvent,
} from './rawModelEvents.js';
export { OpenAIConversationsSession, startOpenAIConversationsSession, type OpenAIConversationsSessionOptions } from './openaiConversationsSession.js';
export {
  OpenAIResponsesCompactionSession,
  type OpenAIResponsesCompactionArgs,
  type OpenAIResponsesCompactionDecisionContext,
  type OpenAIResponsesCompactionMode,
  type OpenAIResponsesCompactionModelExchange,
  type OpenAIResponsesCompactionResult,
  type OpenAIResponsesCompactionSessionOptions,
} from './openaiResponsesCompactionSession.js';
