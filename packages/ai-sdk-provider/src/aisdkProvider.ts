import { UserError, type ModelProvider } from '@baton/types';
import { AiSdkModel } from './aisdk.js';
import type { AiSdkLanguageModel } from './languageModel.js';
import { checkLanguageModel } from './internal/specVersion.js';

/**
 * What `aisdkProvider()` resolves model names with: an AI SDK provider (`ProviderV4` / `ProviderV3`,
 * or any object with `languageModel(id)`), or a function from a model id to a language model.
 * Provider packages' default exports are both (`anthropic`, `google`, `createOpenAICompatible(...)`).
 */
export type AiSdkProviderSource = { languageModel(modelId: string): AiSdkLanguageModel } | ((modelId: string) => AiSdkLanguageModel);

export interface AiSdkModelProviderOptions {
  /** The model id used when the agent names none (`getModel()` without a name). */
  defaultModel?: string;
}

/**
 * A Baton `ModelProvider` over an AI SDK provider: model names resolve through the provider's
 * `languageModel(id)` and are wrapped with `aisdk()`, one model object per name. Give it to
 * `new Runner({ modelProvider })`, or to a prefix map (`new MultiProvider({ providerMap: { anthropic: aisdkProvider(anthropic) } })`
 * resolves `'anthropic/claude-sonnet-4-5'`).
 */
export class AiSdkModelProvider implements ModelProvider {
  readonly #resolve: (modelId: string) => unknown;
  readonly #defaultModel: string | undefined;
  readonly #models = new Map<string, AiSdkModel>();

  constructor(provider: AiSdkProviderSource, options: AiSdkModelProviderOptions = {}) {
    if (typeof provider === 'object' && provider !== null && typeof provider.languageModel === 'function') {
      this.#resolve = (modelId) => provider.languageModel(modelId);
    } else if (typeof provider === 'function') {
      this.#resolve = (modelId) => provider(modelId);
    } else {
      throw new UserError(
        `aisdkProvider() expects an AI SDK provider (an object with languageModel(id), such as anthropic from @ai-sdk/anthropic) or a function from a model id to a language model; received ${provider === null ? 'null' : `a value of typeof '${typeof provider}'`}.`,
      );
    }
    if (options.defaultModel !== undefined && (typeof options.defaultModel !== 'string' || options.defaultModel === '')) {
      throw new UserError('aisdkProvider(): defaultModel must be a non-empty string.');
    }
    this.#defaultModel = options.defaultModel;
  }

  getModel(modelName?: string): AiSdkModel {
    const name = modelName || this.#defaultModel;
    if (name === undefined) throw new UserError('aisdkProvider(): no model name was given and the provider has no defaultModel.');
    let model = this.#models.get(name);
    if (model === undefined) {
      model = new AiSdkModel(checkLanguageModel(this.#resolve(name), `aisdkProvider(): the language model for '${name}'`));
      this.#models.set(name, model);
    }
    return model;
  }
}

/**
 * Turns an AI SDK provider into a Baton `ModelProvider`, so agents can name models:
 *
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * const runner = new Runner({ modelProvider: aisdkProvider(anthropic) });
 * await runner.run(new Agent({ name: 'A', model: 'claude-sonnet-4-5' }), 'Hello');
 * ```
 */
export function aisdkProvider(provider: AiSdkProviderSource, options?: AiSdkModelProviderOptions): AiSdkModelProvider {
  return new AiSdkModelProvider(provider, options);
}
