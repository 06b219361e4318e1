import type { LanguageModelV3, LanguageModelV4 } from '@ai-sdk/provider';

/**
 * A Vercel AI SDK language model this package accepts: specification `v4` (`@ai-sdk/provider` 4.x,
 * AI SDK 7) or `v3` (`@ai-sdk/provider` 3.x, AI SDK 6). Any provider package's model object fits,
 * for example `anthropic('claude-sonnet-4-5')` or `createOpenAICompatible({...}).chatModel('m')`.
 */
export type AiSdkLanguageModel = LanguageModelV4 | LanguageModelV3;

/** The language model specification versions this package speaks. */
export type AiSdkSpecificationVersion = AiSdkLanguageModel['specificationVersion'];
