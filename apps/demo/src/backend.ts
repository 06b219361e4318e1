import { Runner } from '@baton/core';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from '@baton/testing';
import { demoProvider, endpointsToEnv, type ProviderEndpoints } from './providers.js';

export type Env = Record<string, string | undefined>;

/** Where the demo's models run, and the model names its agents use. */
export interface Backend {
  /** The demo's first line. */
  readonly banner: string;
  /** OpenAI models are the local server (no `OPENAI_API_KEY`). */
  readonly offline: boolean;
  /** Anthropic models are the local server (no `ANTHROPIC_API_KEY`). */
  readonly anthropicOffline: boolean;
  readonly openaiModel: string;
  /** The prefixed name `MultiProvider` routes to Anthropic. */
  readonly anthropicModel: string;
  readonly runner: Runner;
  readonly endpoints: ProviderEndpoints;
  /** The local model server (OpenAI Responses and Anthropic Messages routes, among others). */
  readonly server: FakeModelServer;
  /** Queues what the local server answers on a route, when that route is the local server. */
  script(route: 'openai' | 'anthropic', ...turns: FakeTurn[]): void;
  /** Environment for a child process so that it reaches the same models. */
  childEnv(): Env;
  close(): Promise<void>;
}

export async function connectBackend(env: Env = process.env): Promise<Backend> {
  const server = await startFakeModelServer();
  const offline = !env.OPENAI_API_KEY;
  const anthropicOffline = !env.ANTHROPIC_API_KEY;
  const endpoints: ProviderEndpoints = {
    openaiBaseURL: offline ? server.baseURL : undefined,
    anthropicBaseURL: anthropicOffline ? server.anthropicBaseURL : undefined,
  };
  const openaiModel = env.OPENAI_MODEL || 'gpt-4.1';
  const anthropicModel = `anthropic/${env.ANTHROPIC_MODEL || 'claude-sonnet-4-5'}`;
  const banner = offline
    ? `Baton demo: OFFLINE — every model is a local fake server at ${server.url} (OpenAI Responses and Anthropic Messages wire formats). Set OPENAI_API_KEY to run on OpenAI.`
    : `Baton demo: ON OPENAI — model ${openaiModel}${env.OPENAI_BASE_URL ? ` at ${env.OPENAI_BASE_URL}` : ''} (OPENAI_API_KEY is set); Anthropic ${anthropicOffline ? `is the local fake server at ${server.url} (set ANTHROPIC_API_KEY for the real one)` : 'is real (ANTHROPIC_API_KEY is set)'}.`;
  return {
    banner,
    offline,
    anthropicOffline,
    openaiModel,
    anthropicModel,
    runner: new Runner({ modelProvider: demoProvider(endpoints), tracingDisabled: true }),
    endpoints,
    server,
    script(route, ...turns) {
      if (route === 'openai' ? offline : anthropicOffline) server.enqueue(...turns);
    },
    childEnv: () => ({ ...env, ...endpointsToEnv(endpoints) }),
    close: () => server.close(),
  };
}
