import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeOpenAIServer, fakeText, fakeToolCalls } from '@baton/testing';
import { onBoth, type SdkUnderTest } from './sdks.js';

// OpenAIConversationsSession: the history kept in an OpenAI conversation. The same program runs on
// both SDKs against the fake server (which keeps conversations in memory); the Conversations API
// calls, the model requests and what the session reads back must be the same.

/**
 * The reference leaves the item's own `id` / `type` (or nothing) in `providerData` of items it reads
 * back; Baton leaves providerData out when nothing else is in it. Compared without that echo.
 */
function withoutEcho(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEcho);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'providerData' && typeof entry === 'object' && entry !== null && Object.keys(entry).every((k) => k === 'id' || k === 'type')) continue;
    out[key] = withoutEcho(entry);
  }
  return out;
}

async function conversationProgram({ sdk }: SdkUnderTest) {
  const server = await FakeOpenAIServer.start({
    turns: [fakeToolCalls([{ name: 'lookup', arguments: { city: 'Oslo' } }]), fakeText('It is sunny in Oslo.'), fakeText('Still sunny.')],
  });
  try {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, maxRetries: 0 });
    const s = sdk as any;
    const provider = new s.OpenAIProvider({ openAIClient: client, useResponses: true });
    const runner = new s.Runner({ modelProvider: provider, tracingDisabled: true });
    const lookup = s.tool({ name: 'lookup', description: 'Weather', parameters: z.object({ city: z.string() }), execute: ({ city }: { city: string }) => `sunny in ${city}` });
    const agent = new s.Agent({ name: 'Weather', instructions: 'Answer briefly.', tools: [lookup] });
    const session = new s.OpenAIConversationsSession({ client });
    const before = session.sessionId;
    await runner.run(agent, 'Weather in Oslo?', { session });
    await runner.run(agent, 'And now?', { session });
    const all = await session.getItems();
    const lastTwo = await session.getItems(2);
    const popped = await session.popItem();
    const afterPop = (await session.getItems()).length;
    const id = await session.getSessionId();
    await session.clearSession();
    const requests = server.requests.map((r) => ({ method: r.method, path: r.path.replace(/conv_\d+/, 'conv'), body: r.body }));
    return { before, id: typeof id, all: withoutEcho(all), lastTwo: withoutEcho(lastTwo), popped: withoutEcho(popped), afterPop, cleared: session.sessionId, requests };
  } finally {
    await server.close();
  }
}

describe('OpenAIConversationsSession (same on both SDKs)', () => {
  it('a two-run conversation: the API calls, the model requests and the items read back', async () => {
    const both = await onBoth(conversationProgram);
    expect(both.baton.requests.map((r) => `${r.method} ${r.path}`)).toEqual(both.reference.requests.map((r) => `${r.method} ${r.path}`));
    expect(both.baton.requests).toEqual(both.reference.requests);
    expect(both.baton).toEqual(both.reference);
  });

  it('startOpenAIConversationsSession creates an empty conversation', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const server = await FakeOpenAIServer.start();
      try {
        const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL });
        const id = await (sdk as any).startOpenAIConversationsSession(client);
        const session = new (sdk as any).OpenAIConversationsSession({ client, conversationId: id });
        return { id, items: await session.getItems(), requests: server.requests.map((r) => [r.method, r.path, r.body]) };
      } finally {
        await server.close();
      }
    });
    expect(both.baton).toEqual(both.reference);
  });
});
