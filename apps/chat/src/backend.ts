import { Runner } from '@baton/core';
import { OpenAIProvider } from '@baton/openai-provider';
import { startFakeModelServer, type FakeModelServer, type FakeStreamOptions } from '@baton/testing';
import { scriptSupportModel } from './script.js';

export type Env = Record<string, string | undefined>;

/** Where the chat's model runs: OpenAI when `OPENAI_API_KEY` is set, else the local fake model server playing a script. */
export interface ChatBackend {
  readonly runner: Runner;
  readonly model: string;
  readonly offline: boolean;
  readonly banner: string;
  close(): Promise<void>;
}

export async function connectBackend(env: Env = process.env, pace: FakeStreamOptions = { eventDelayMs: 40, deltaChunks: 12 }): Promise<ChatBackend> {
  const model = env.OPENAI_MODEL || 'gpt-4.1-mini';
  if (env.OPENAI_API_KEY) {
    return {
      runner: new Runner({ modelProvider: new OpenAIProvider(), tracingDisabled: true }),
      model,
      offline: false,
      banner: `Baton chat: ON OPENAI — model ${model} (OPENAI_API_KEY is set).`,
      close: async () => undefined,
    };
  }
  const server: FakeModelServer = await startFakeModelServer();
  scriptSupportModel(server, pace);
  return {
    runner: new Runner({ modelProvider: new OpenAIProvider({ apiKey: 'offline-chat', baseURL: server.baseURL }), tracingDisabled: true }),
    model,
    offline: true,
    banner: `Baton chat: OFFLINE — the model is a local fake server at ${server.url} playing a script. Set OPENAI_API_KEY to chat with OpenAI.`,
    close: () => server.close(),
  };
}
