/**
 * @baton/ai-sdk-provider: any Vercel AI SDK language model (specification v4, v3 or v2) as a Baton
 * `Model`. Depends on `@baton/types` and `@ai-sdk/provider` only (never on `@baton/core`).
 */
export { aisdk, AiSdkModel } from './aisdk.js';
export type { AiSdkModelOptions, AiSdkOutputTextTransform, AiSdkOutputTextTransformContext } from './aisdkModelOptions.js';
export {
  getResponseFormat,
  itemsToLanguageV2Messages,
  parseArguments,
  toolChoiceToLanguageV2Format,
  toolToLanguageV2Tool,
  type AiSdkModelIdentity,
  type AiSdkPromptMessage,
} from './conversion.js';
export { aisdkProvider, AiSdkModelProvider, type AiSdkModelProviderOptions, type AiSdkProviderSource } from './aisdkProvider.js';
export { aisdkProviderTool, AI_SDK_PROVIDER_TOOL_KEY, type AiSdkProviderToolDefinition } from './aisdkProviderTool.js';
export { aiSdkToolSearchTool } from './aiSdkToolSearchTool.js';
export {
  AiSdkProviderError,
  isAiSdkProviderError,
  type AiSdkProviderErrorDetails,
  type AiSdkProviderErrorReason,
} from './aiSdkProviderError.js';
export type { AiSdkLanguageModel, AiSdkSpecificationVersion } from './languageModel.js';
export { AISDK_RAW_MODEL_EVENT_SOURCE, isAiSdkRawModelStreamEvent } from './rawModelEvents.js';
// The AI SDK UI adapter is also reachable from the package root (its own entry is `@baton/ai-sdk-provider/ui`).
export {
  createAiSdkTextStreamResponse,
  createAiSdkUiMessageStream,
  createAiSdkUiMessageStreamResponse,
  type AiSdkTextStreamHeaders,
  type AiSdkTextStreamResponseOptions,
  type AiSdkTextStreamSource,
  type AiSdkToolProgress,
  type AiSdkUiMessageChunk,
  type AiSdkUiMessageStreamHeaders,
  type AiSdkUiMessageStreamOptions,
  type AiSdkUiMessageStreamResponseOptions,
  type AiSdkUiMessageStreamSource,
} from './ui/index.js';
