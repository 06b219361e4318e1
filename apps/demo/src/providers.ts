import { createAnthropic } from '@ai-sdk/anthropic';
import { aisdkProvider } from '@baton/ai-sdk-provider';
import { MultiProvider } from '@baton/core';
import { OpenAIProvider } from '@baton/openai-provider';

export interface ProviderEndpoints {
  /** Where OpenAI models are; undefined means OpenAI itself (`OPENAI_API_KEY`, `OPENAI_BASE_URL`). */
  readonly openaiBaseURL: string | undefined;
  /** Where Anthropic models are; undefined means Anthropic itself (`ANTHROPIC_API_KEY`). */
  readonly anthropicBaseURL: string | undefined;
}

/**
 * One provider for every agent in the demo: `gpt-4.1` goes to OpenAI (the default prefix),
 * `anthropic/claude-sonnet-4-5` to Anthropic through the AI SDK. Switching an agent's vendor is
 * changing its model name.
 */
export function demoProvider(endpoints: ProviderEndpoints): MultiProvider {
  const openai =
    endpoints.openaiBaseURL === undefined
      ? new OpenAIProvider()
      : new OpenAIProvider({ apiKey: 'offline-demo', baseURL: endpoints.openaiBaseURL });
  const anthropic =
    endpoints.anthropicBaseURL === undefined
      ? createAnthropic()
      : createAnthropic({ apiKey: 'offline-demo', baseURL: endpoints.anthropicBaseURL });
  return new MultiProvider({ providerMap: { openai, anthropic: aisdkProvider(anthropic) } });
}

/** The endpoints a child process should use, passed through its environment. */
export function endpointsToEnv(endpoints: ProviderEndpoints): Record<string, string> {
  const env: Record<string, string> = {};
  if (endpoints.openaiBaseURL !== undefined) env.BATON_DEMO_OPENAI_BASE_URL = endpoints.openaiBaseURL;
  if (endpoints.anthropicBaseURL !== undefined) env.BATON_DEMO_ANTHROPIC_BASE_URL = endpoints.anthropicBaseURL;
  return env;
}

export function endpointsFromEnv(env: Record<string, string | undefined>): ProviderEndpoints {
  return { openaiBaseURL: env.BATON_DEMO_OPENAI_BASE_URL, anthropicBaseURL: env.BATON_DEMO_ANTHROPIC_BASE_URL };
}
