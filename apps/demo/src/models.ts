import { OpenAIProvider, setTraceProcessors, type Model } from '@baton/agents';
import { FakeOpenAIServer } from '@baton/agents/testing';
import { scriptedConversation } from './scriptedConversation.js';

export interface DemoModels {
  readonly models: { researcher: Model; planner: Model };
  /** The demo's first line: where the models run. */
  readonly banner: string;
  readonly offline: boolean;
  /** The local server when offline (its recorded requests are what the demo sent). */
  readonly server: FakeOpenAIServer | undefined;
  close(): Promise<void>;
}

/**
 * The demo's models, always `OpenAIProvider` models on the real `openai` client. With
 * `OPENAI_API_KEY` set they talk to OpenAI (or to `OPENAI_BASE_URL`, any compatible endpoint);
 * without it they talk to a local OpenAI-compatible server that plays a scripted conversation.
 */
export async function connectModels(env: Record<string, string | undefined> = process.env): Promise<DemoModels> {
  const modelName = env.OPENAI_MODEL || 'gpt-4.1';
  const apiKey = env.OPENAI_API_KEY;
  if (apiKey) {
    const baseURL = env.OPENAI_BASE_URL || undefined;
    const provider = new OpenAIProvider({ apiKey, ...(baseURL ? { baseURL } : {}) });
    return {
      models: { researcher: provider.getModel(modelName), planner: provider.getModel(modelName) },
      banner: `Baton demo: talking to ${baseURL ?? 'OpenAI'} with model ${modelName} (OPENAI_API_KEY is set).`,
      offline: false,
      server: undefined,
      close: async () => {},
    };
  }
  // Offline there is nowhere to send traces (the default exporter posts to OpenAI with your key).
  setTraceProcessors([]);
  const server = await FakeOpenAIServer.start({ turns: scriptedConversation() });
  const provider = new OpenAIProvider({ apiKey: 'offline-demo', baseURL: server.baseURL });
  return {
    models: { researcher: provider.getModel(modelName), planner: provider.getModel(modelName) },
    banner: `Baton demo: running offline on a scripted model (a local OpenAI-compatible server at ${server.baseURL}; set OPENAI_API_KEY to use OpenAI).`,
    offline: true,
    server,
    close: () => server.close(),
  };
}
