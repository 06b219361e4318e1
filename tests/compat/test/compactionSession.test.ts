import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { FakeOpenAIServer } from '@baton/testing';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// OpenAIResponsesCompactionSession side by side: the same history compacted through each SDK's
// session against the fake server's `responses.compact` sends the same request, stores the same
// history, and decides and refuses the same way.

type Json = Record<string, any>;

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function history(turns: number): Json[] {
  return Array.from({ length: turns }, (_, i) => [
    { type: 'message', role: 'user', content: `q${i}` },
    { type: 'function_call', callId: `c${i}`, name: 'lookup', arguments: '{}', status: 'completed' },
    { type: 'function_call_result', callId: `c${i}`, name: 'lookup', status: 'completed', output: 'found' },
    { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `a${i}` }] },
  ]).flat();
}

async function compacting({ sdk }: SdkUnderTest, options: Json, items: Json[], args: Json) {
  const server = await FakeOpenAIServer.start();
  servers.push(server);
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, logLevel: 'off', maxRetries: 0 });
  const session = new (sdk as any).OpenAIResponsesCompactionSession({ client, model: 'gpt-5.4', ...options });
  await session.addItems(items);
  const outcome = await outcomeOf(session.runCompaction(args) as Promise<Json | null>);
  const stored: Json[] = await session.getItems();
  return {
    result: outcome.ok ? (outcome.value === null ? null : { usage: { ...outcome.value.usage } }) : `${(outcome.error as Error).message}`,
    requests: server.requests.map((request) => ({ path: request.path, body: request.body })),
    // Fake ids differ per server start only in counters, which both runs share.
    stored,
  };
}

describe('OpenAIResponsesCompactionSession (same on both SDKs)', () => {
  it.each<[string, Json, number, Json]>([
    ['below the default threshold', {}, 2, { store: false }],
    ['at the default threshold, from the stored items', {}, 3, { responseId: 'resp_1', store: false }],
    ['forced, through the stored response chain', {}, 1, { responseId: 'resp_9', force: true }],
    ['forced in input mode', { compactionMode: 'input' }, 1, { responseId: 'resp_9', force: true }],
    ['previous_response_id without a response id', { compactionMode: 'previous_response_id' }, 1, { force: true }],
    ['over maxRollbackItems', { maxRollbackItems: 3 }, 1, { force: true, store: false }],
  ])('%s', async (_label, options, turns, args) => {
    const items = turns === 3 ? [...history(3), history(4)[13]!] : history(turns);
    const both = await onBoth((under) => compacting(under, options, items, args));
    expect(both.baton).toEqual(both.reference);
  });

  it('refuses the same options', async () => {
    const both = await onBoth(async ({ sdk }) =>
      [{ model: 'claude-3' }, { maxRollbackItems: 0 }, { maxRollbackItems: 1.5 }].map((options) => {
        try {
          new (sdk as any).OpenAIResponsesCompactionSession({ client: new OpenAI({ apiKey: 'sk' }), ...options });
          return 'ok';
        } catch (error) {
          return (error as Error).message;
        }
      }),
    );
    expect(both.baton).toEqual(both.reference);
  });
});
