import { UserError, type Model, type ModelProvider } from '@baton/types';

/**
 * Model providers by prefix: `'anthropic'` resolves `'anthropic/claude-…'`. The names the Python
 * SDK uses (`MultiProviderMap`), in TypeScript casing.
 */
export class MultiProviderMap {
  readonly #providers = new Map<string, ModelProvider>();

  constructor(providers: Readonly<Record<string, ModelProvider>> = {}) {
    for (const [prefix, provider] of Object.entries(providers)) this.addProvider(prefix, provider);
  }

  hasPrefix(prefix: string): boolean {
    return this.#providers.has(prefix);
  }

  getProvider(prefix: string): ModelProvider | undefined {
    return this.#providers.get(prefix);
  }

  addProvider(prefix: string, provider: ModelProvider): void {
    if (prefix === '' || prefix.includes('/')) {
      throw new UserError(`MultiProvider: a prefix is a non-empty name without '/', got ${JSON.stringify(prefix)}.`);
    }
    if (typeof provider !== 'object' || provider === null || typeof provider.getModel !== 'function') {
      throw new UserError(`MultiProvider: the provider for prefix '${prefix}' is not a model provider (an object with getModel()).`);
    }
    this.#providers.set(prefix, provider);
  }

  removeProvider(prefix: string): void {
    this.#providers.delete(prefix);
  }

  /** A copy of the prefixes and their providers. */
  getMapping(): Map<string, ModelProvider> {
    return new Map(this.#providers);
  }

  setMapping(mapping: ReadonlyMap<string, ModelProvider> | Readonly<Record<string, ModelProvider>>): void {
    this.#providers.clear();
    const entries = mapping instanceof Map ? [...mapping.entries()] : Object.entries(mapping);
    for (const [prefix, provider] of entries) this.addProvider(prefix, provider);
  }

  prefixes(): string[] {
    return [...this.#providers.keys()];
  }
}

export interface MultiProviderOptions {
  /** The providers by prefix (a plain object or a `MultiProviderMap` that can change later). */
  providerMap?: MultiProviderMap | Readonly<Record<string, ModelProvider>>;
  /** The prefix whose provider resolves names without one, such as `'gpt-4.1'` (default `'openai'`). */
  defaultPrefix?: string;
}

/**
 * A model provider that routes prefixed model names to other providers: `'anthropic/claude-…'` to
 * the provider registered for `anthropic`, given the rest of the name (`'claude-…'`). Only the first
 * `/` separates the prefix, so `'openrouter/openai/gpt-4.1'` reaches the `openrouter` provider as
 * `'openai/gpt-4.1'`. A name without a prefix (or no name, the provider's default model) goes to the
 * default prefix's provider. An unknown prefix is a `UserError` listing the known ones.
 *
 * ```ts
 * setDefaultModelProvider(new MultiProvider({ providerMap: { openai: new OpenAIProvider(), anthropic: aisdkProvider(anthropic) } }));
 * new Agent({ name: 'Specialist', model: 'anthropic/claude-sonnet-4-5' });
 * ```
 */
export class MultiProvider implements ModelProvider {
  readonly providerMap: MultiProviderMap;
  readonly defaultPrefix: string;

  constructor(options: MultiProviderOptions = {}) {
    const map = options.providerMap;
    this.providerMap = map instanceof MultiProviderMap ? map : new MultiProviderMap(map);
    this.defaultPrefix = options.defaultPrefix ?? 'openai';
  }

  getModel(modelName?: string): Model | Promise<Model> {
    const slash = modelName === undefined ? -1 : modelName.indexOf('/');
    if (modelName === undefined || slash === -1) return this.#provider(this.defaultPrefix, modelName).getModel(modelName);
    return this.#provider(modelName.slice(0, slash), modelName).getModel(modelName.slice(slash + 1));
  }

  #provider(prefix: string, modelName: string | undefined): ModelProvider {
    const provider = this.providerMap.getProvider(prefix);
    if (provider !== undefined) return provider;
    const known = this.providerMap.prefixes();
    const listed = known.length === 0 ? 'none is registered' : `known prefixes: ${known.map((p) => `'${p}'`).join(', ')}`;
    const what = modelName === undefined || !modelName.includes('/') ? `the default prefix '${prefix}'` : `the prefix '${prefix}'`;
    throw new UserError(
      `MultiProvider: no provider for ${what} (model ${JSON.stringify(modelName ?? '(default)')}); ${listed}. Register one with providerMap.addProvider('${prefix}', provider).`,
    );
  }
}
