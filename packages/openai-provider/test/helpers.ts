import { afterEach } from 'vitest';
import OpenAI from 'openai';
import type { Model, ModelRequest, ModelStreamEvent } from '@baton/types';
import { FakeOpenAIServer, type FakeTurn } from '@baton/testing';
import { OpenAIChatCompletionsModel, OpenAIResponsesModel, type OpenAIApi } from '../src/index.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A fake server for this test, closed after it. */
export async function fakeServer(...turns: FakeTurn[]): Promise<FakeOpenAIServer> {
  const server = await FakeOpenAIServer.start({ turns });
  servers.push(server);
  return server;
}

/** A real `openai` client pointed at the fake server (its own retries left at the default, which the models override). */
export function clientFor(server: FakeOpenAIServer): OpenAI {
  return new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, logLevel: 'off' });
}

export const APIS: readonly OpenAIApi[] = ['responses', 'chat_completions'];

/** A model for the given API on the fake server. */
export function modelFor(server: FakeOpenAIServer, api: OpenAIApi, name = 'gpt-4.1'): Model {
  const client = clientFor(server);
  return api === 'responses' ? new OpenAIResponsesModel(client, name) : new OpenAIChatCompletionsModel(client, name);
}

/** A model request with defaults; fast retries so failing tests stay quick. */
export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    input: 'hi',
    modelSettings: { retry: { maxRetries: 0 } },
    tools: [],
    handoffs: [],
    outputType: 'text',
    tracing: false,
    ...overrides,
  };
}

/** Every event of a streamed response. */
export async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Every event until the stream throws; returns the events and the error. */
export async function collectUntilError(events: AsyncIterable<ModelStreamEvent>): Promise<{ events: ModelStreamEvent[]; error: unknown }> {
  const out: ModelStreamEvent[] = [];
  try {
    for await (const event of events) out.push(event);
  } catch (error) {
    return { events: out, error };
  }
  throw new Error(`the stream did not fail (got ${out.length} events)`);
}

/** The raw provider event types of a stream, in order. */
export function rawTypes(events: ModelStreamEvent[]): unknown[] {
  return events.filter((event) => event.type === 'model').map((event) => (event.event as { type?: unknown }).type);
}

/** Resolves to the rejection of a promise (fails if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A strict JSON schema for `{ city: string }`. */
export const citySchema = {
  type: 'object' as const,
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};
