import { MultiProvider as CoreMultiProvider, type MultiProviderOptions } from '@baton/core';
import { OpenAIProvider } from '@baton/openai-provider';

/**
 * Core's `MultiProvider` with OpenAI built in, as in the Python SDK: when the map has no provider for
 * `openai`, an `OpenAIProvider` (reading `OPENAI_API_KEY` / `OPENAI_BASE_URL` on its first model) is
 * added under that prefix, so bare names (`'gpt-4.1'`) and `'openai/…'` work beside the vendors you
 * register.
 *
 * ```ts
 * setDefaultModelProvider(new MultiProvider({ providerMap: { anthropic: aisdkProvider(anthropic) } }));
 * ```
 */
export class MultiProvider extends CoreMultiProvider {
  constructor(options: MultiProviderOptions = {}) {
    super(options);
    if (!this.providerMap.hasPrefix('openai')) this.providerMap.addProvider('openai', new OpenAIProvider());
  }
}
