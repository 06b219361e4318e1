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
