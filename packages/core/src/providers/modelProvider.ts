import { UserError, type ModelProvider } from '@baton/types';

let defaultProvider: ModelProvider | undefined;

/** Sets the provider used to resolve model names when a runner has none of its own. */
export function setDefaultModelProvider(provider: ModelProvider): void {
  if (typeof provider !== 'object' || provider === null || typeof provider.getModel !== 'function') {
    throw new UserError('setDefaultModelProvider: expected an object with getModel().');
  }
  defaultProvider = provider;
}

export function getDefaultModelProvider(): ModelProvider {
  if (!defaultProvider) {
    throw new UserError(
      'No model provider is set: pass a Model instance as the agent `model`, give the Runner a `modelProvider`, or call setDefaultModelProvider() (the @baton/agents package sets the OpenAI provider).',
    );
  }
  return defaultProvider;
}

/** A provider that resolves lazily, so a runner made before `setDefaultModelProvider` still works. */
export const lazyDefaultProvider: ModelProvider = {
  getModel: (name) => getDefaultModelProvider().getModel(name),
};

/**
 * A provider that resolves the default lazily, on its first model lookup, and keeps what it found:
 * a Runner made without a provider keeps using the default it first ran with, even when
 * \`setDefaultModelProvider\` is called again later (as the reference's runner does).
 */
export function firstDefaultProvider(): ModelProvider {
  let resolved: ModelProvider | undefined;
  return {
    getModel: (name) => (resolved ??= getDefaultModelProvider()).getModel(name),
  };
}
