import type { JSONSchema7, SharedV4ProviderOptions } from '@ai-sdk/provider';
import { UserError, type ModelRequest } from '@baton/types';
import type { AiSdkSpecificationVersion } from '../languageModel.js';
import { compact, isPlainObject, isRecord, type Json } from './json.js';
import { toPrompt } from './prompt.js';
import type { CallOptions } from './promptTypes.js';
import type { ModelIdentity } from './providerData.js';
import { specToolChoice, specTools } from './tools.js';

/** Call options the adapter owns: `modelSettings.providerData` cannot replace them. */
const OWNED = new Set(['prompt', 'tools', 'abortSignal']);

export interface CallContext {
  readonly spec: AiSdkSpecificationVersion;
  readonly model: ModelIdentity;
}

/**
 * A Baton model request as the spec's call options (without `abortSignal`, which the call adds).
 * `modelSettings.providerData` is spread over them, the reference adapter's convention: any call
 * option can be set there (`topK`, `seed`, `stopSequences`, `headers`, `includeRawChunks`, ...),
 * and `providerOptions` is merged per provider namespace with the adapter's own.
 */
export function callOptionsOf(request: ModelRequest, context: CallContext): CallOptions {
  if (request.previousResponseId !== undefined || request.conversationId !== undefined) {
    throw new UserError(
      'previousResponseId and conversationId continue a conversation the server keeps; AI SDK models have none (send the history as input, or use a session).',
    );
  }
  const settings = request.modelSettings ?? {};
  const tools = specTools(request, context.spec, context.model.provider);
  const extra = extraOptions(settings.providerData);
  const effort = settings.reasoning?.effort ?? undefined;
  const outputType = request.outputType ?? 'text';
  const options = compact({
    prompt: toPrompt(request.input, request.systemInstructions, context),
    tools,
    toolChoice: specToolChoice(settings.toolChoice),
    responseFormat: outputType === 'text' ? undefined : { type: 'json' as const, schema: outputType.schema as JSONSchema7, name: outputType.name },
    temperature: settings.temperature,
    topP: settings.topP,
    maxOutputTokens: settings.maxTokens,
    presencePenalty: settings.presencePenalty,
    frequencyPenalty: settings.frequencyPenalty,
    reasoning: context.spec === 'v4' ? effort : undefined,
    ...extra.options,
    providerOptions: withCacheRetention(
      extra.malformed ? extra.providerOptions : mergeOptions(context.spec === 'v3' && effort !== undefined ? v3Effort(context.model.provider, effort) : undefined, extra.providerOptions),
      (settings as { promptCacheRetention?: unknown }).promptCacheRetention,
      context,
    ),
  });
  return options as CallOptions;
}

/**
 * `modelSettings.promptCacheRetention` for OpenAI Responses models (`openai.responses`), the only
 * AI SDK provider with that option: `providerOptions.openai.promptCacheRetention` (`'in-memory'`
 * spelled `'in_memory'`, as the provider expects), unless the user set it there already. A v2
 * model's OpenAI provider has no such option: a `UserError`. Other providers ignore the setting;
 * provider options that are not objects are left for the AI SDK to reject.
 */
function withCacheRetention(providerOptions: SharedV4ProviderOptions | undefined, retention: unknown, context: CallContext): SharedV4ProviderOptions | undefined {
  if (retention === undefined || context.model.provider !== 'openai.responses') return providerOptions;
  if (context.spec === 'v2') {
    throw new UserError(
      'AI SDK prompt cache retention requires specificationVersion v3 or v4; v2 models do not support this option. (modelSettings.promptCacheRetention on an AI SDK 5 OpenAI Responses model: upgrade @ai-sdk/openai or remove the setting.)',
    );
  }
  if (providerOptions !== undefined && !isPlainObject(providerOptions)) return providerOptions;
  const openai = providerOptions?.openai;
  if (openai !== undefined && !isPlainObject(openai)) return providerOptions;
  const value = openai?.promptCacheRetention !== undefined ? openai.promptCacheRetention : retention === 'in-memory' ? 'in_memory' : retention;
  return { ...providerOptions, openai: { ...openai, promptCacheRetention: value as never } };
}

/**
 * v3 has no `reasoning` call option: the effort goes to the provider's own options as
 * `reasoningEffort`, the name OpenAI, OpenAI-compatible, xAI and Groq read (under the provider
 * key: `openai.responses` → `openai`). Providers that configure thinking differently (Anthropic's
 * `thinking`, Google's `thinkingConfig`) take it from `providerData.providerOptions`.
 */
function v3Effort(provider: string, effort: string): SharedV4ProviderOptions {
  return { [provider.split('.')[0] || provider]: { reasoningEffort: effort } };
}

function extraOptions(providerData: unknown): { options: Json; providerOptions: SharedV4ProviderOptions | undefined; malformed: boolean } {
  if (providerData === undefined) return { options: {}, providerOptions: undefined, malformed: false };
  if (!isRecord(providerData)) throw new UserError('modelSettings.providerData must be an object (extra AI SDK call options).');
  const options: Json = {};
  let providerOptions: SharedV4ProviderOptions | undefined;
  let malformed = false;
  for (const [key, value] of Object.entries(providerData)) {
    if (value === undefined || OWNED.has(key)) continue;
    if (key === 'providerOptions') {
      // Options that do not map provider names to objects go to the model as they are, for the AI SDK's own validation to name.
      malformed = !isPlainObject(value) || !Object.values(value).every(isPlainObject);
      providerOptions = value as SharedV4ProviderOptions;
    } else {
      options[key] = value;
    }
  }
  return { options, providerOptions, malformed };
}

/** Provider options merged per namespace; the user's (`providerData.providerOptions`) win. */
function mergeOptions(base: SharedV4ProviderOptions | undefined, user: SharedV4ProviderOptions | undefined): SharedV4ProviderOptions | undefined {
  if (base === undefined) return user;
  if (user === undefined) return base;
  const out: SharedV4ProviderOptions = { ...base };
  for (const [key, value] of Object.entries(user)) out[key] = { ...out[key], ...value };
  return out;
}
