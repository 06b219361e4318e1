import * as Context from 'effect/Context';
import type { ModelProvider } from '@baton/types';
import { lazyDefaultProvider } from './modelProvider.js';

/**
 * The model provider as an Effect service: `runner.runEffect(...)` resolves model names with the
 * provider given here (a layer or `Effect.provideService`) when the Runner has no `modelProvider`
 * of its own; by default, the provider set with `setDefaultModelProvider`. Nested agent-tool runs
 * use the same provider.
 *
 * ```ts
 * runner.runEffect(agent, 'hi').pipe(Effect.provideService(ModelProviderService, myProvider))
 * ```
 */
export const ModelProviderService: Context.Reference<ModelProvider> = Context.Reference<ModelProvider>('@baton/core/ModelProvider', {
  defaultValue: () => lazyDefaultProvider,
});
