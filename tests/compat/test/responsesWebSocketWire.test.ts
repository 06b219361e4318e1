import { createRequire } from 'node:module';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { FakeOpenAIServer, fakeText } from '@baton/testing';
import { onBoth, type SdkUnderTest } from './sdks.js';

// The Responses WebSocket transport side by side: each SDK's OpenAIResponsesWSModel sends the same
// `response.create` frames to the fake server's WebSocket and reads the same answers.

type Json = Record<string, any>;

// The reference uses the global WebSocket (Node 22 has one); on older Node, `ws` (the provider's own
// dependency) stands in for it.
beforeAll(() => {
  if (typeof (globalThis as { WebSocket?: unknown }).WebSocket !== 'undefined') return;
  const fromProvider = createRequire(createRequire(import.meta.url).resolve('@baton/openai-provider'));
  (globalThis as { WebSocket?: unknown }).WebSocket = fromProvider('ws').WebSocket;
});

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const request = (overrides: Json = {}) => ({ input: 'hello', modelSettings: {}, tools: [], outputType: 'text', handoffs: [], tracing: false, ...overrides });
const lookup = { type: 'function', name: 'lookup', description: 'Look up a record.', parameters: { type: 'object', properties: {}, additionalProperties: false }, strict: true };

async function overWebSocket({ sdk }: SdkUnderTest) {
  const server = await FakeOpenAIServer.start({ turns: [fakeText('first'), fakeText('done')] });
  servers.push(server);
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, logLevel: 'off', maxRetries: 0 });
  const model = new (sdk as any).OpenAIResponsesWSModel(client, 'gpt-5.4');
  try {
    return await sdk.withTrace('websocket wire', async () => {
      const first = await model.getResponse(request({ tools: [lookup], systemInstructions: 'Be brief.', modelSettings: { temperature: 0.2 } }));
      const events: string[] = [];
      for await (const event of model.getStreamedResponse(request({ input: 'again' }))) events.push(event.type);
      return {
        output: first.output,
        events,
        frames: server.requests.map((recorded) => ({ transport: recorded.transport, authorization: recorded.headers.authorization, body: recorded.body })),
        upgrades: server.upgrades,
      };
    });
  } finally {
    await model.close();
  }
}

describe('the Responses WebSocket transport (same on both SDKs)', () => {
  it('sends the same response.create frames on one socket and reads the same answers', async () => {
    const both = await onBoth(overWebSocket);
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.upgrades).toBe(1);
  });
});
