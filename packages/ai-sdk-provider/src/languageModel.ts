import type { LanguageModelV2, LanguageModelV3, LanguageModelV4 } from '@ai-sdk/provider';

/**
 * A Vercel AI SDK language model this package accepts: specification `v4` (`@ai-sdk/provider` 4.x,
 * AI SDK 7), `v3` (`@ai-sdk/provider` 3.x, AI SDK 6) or `v2` (`@ai-sdk/provider` 2.x, AI SDK 5). Any
 * provider package's model object fits, for example `anthropic('claude-sonnet-4-5')` or
 * `createOpenAICompatible({...}).chatModel('m')`.
 */
export type AiSdkLanguageModel = LanguageModelV4 | LanguageModelV3 | LanguageModelV2;

/** The language model specification versions this package speaks. */
export type AiSdkSpecificationVersion = 'v2' | 'v3' | 'v4';
