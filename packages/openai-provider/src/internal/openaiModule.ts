import type * as OpenAIModule from 'openai';

/**
 * The `openai` package, loaded on first use rather than at import: it is most of this provider's
 * load time, and a program that only defines agents (or brings its own client) may never need it.
 */
let loading: Promise<typeof OpenAIModule> | undefined;
let loaded: typeof OpenAIModule | undefined;

export function loadOpenAI(): Promise<typeof OpenAIModule> {
  loading ??= import('openai').then((module) => (loaded = module));
  return loading;
}

/** The module once `loadOpenAI` has finished (every request awaits it first), else undefined. */
export function loadedOpenAI(): typeof OpenAIModule | undefined {
  return loaded;
}
