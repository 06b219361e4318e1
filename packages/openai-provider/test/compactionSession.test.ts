import { describe, expect, it } from 'vitest';
import { decodeFakeCompaction, fakeText } from '@baton/testing';
import { RequestUsage, UserError, type AgentInputItem, type Session } from '@baton/types';
import { OpenAIConversationsSession, OpenAIResponsesCompactionSession } from '../src/index.js';
import { clientFor, fakeServer, modelFor, rejectionOf, request } from './helpers.js';

const user = (text: string): AgentInputItem => ({ type: 'message', role: 'user', content: text });
const answer = (text: string): AgentInputItem => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });
const call = (id: string): AgentInputItem => ({ type: 'function_call', callId: id, name: 'lookup', arguments: '{}', status: 'completed' });
const result = (id: string): AgentInputItem => ({ type: 'function_call_result', callId: id, name: 'lookup', status: 'completed', output: 'found' });

/** A conversation with `turns` tool turns: each a user message, a call, its result and an answer. */
function conversation(turns: number): AgentInputItem[] {
  return Array.from({ length: turns }, (_, i) => [user(`q${i}`), call(`c${i}`), result(`c${i}`), answer(`a${i}`)]).flat();
}

describe('OpenAIResponsesCompactionSession', () => {
  it('compacts once 10 items besides user messages are stored, keeping the user messages and one compaction item', async () => {
    const server = await fakeServer();
    const session = new OpenAIResponsesCompactionSession({ client: clientFor(server), model: 'gpt-5.4' });
    await session.addItems(conversation(3)); // 9 candidates
    expect(await session.runCompaction({ store: false })).toBeNull();
    expect(server.requests).toHaveLength(0);

    await session.addItems([call('c3')]); // 10 candidates
    const compacted = await session.runCompaction({ store: false });
    expect(compacted?.usage).toBeInstanceOf(RequestUsage);
    expect(compacted?.usage).toMatchObject({ inputTokens: 13, outputTokens: 1, totalTokens: 14, endpoint: 'responses.compact' });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/responses/compact' });
    expect(server.requests[0]!.body.model).toBe('gpt-5.4');
    expect(server.requests[0]!.body.input).toHaveLength(13);

    const items = await session.getItems();
    expect(items.map((item) => item.type)).toEqual(['message', 'message', 'message', 'compaction']);
    expect(items[0]).toEqual({ id: expect.any(String), type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q0' }] });
    const compaction = items[3] as { encrypted_content: string };
    expect(decodeFakeCompaction(compaction.encrypted_content)).toHaveLength(10);
  });

  it('sends the stored compaction item back to the model on the next turn', async () => {
    const server = await fakeServer(fakeText('still here'));
    const session = new OpenAIResponsesCompactionSession({ client: clientFor(server), model: 'gpt-5.4' });
    await session.addItems(conversation(1));
    await session.runCompaction({ force: true, store: false });
    const history = await session.getItems();
    await modelFor(server, 'responses').getResponse(request({ input: [...history, user('and now?')] }));
    const input = server.requests[1]!.body.input as Array<Record<string, unknown>>;
    expect(input.at(-2)).toEqual({ type: 'compaction', id: expect.any(String), encrypted_content: expect.any(String) });
    expect(input.at(-2)).not.toHaveProperty('created_by');
  });

  it('uses the stored response chain in auto mode when the last response was stored', async () => {
    const server = await fakeServer();
    const session = new OpenAIResponsesCompactionSession({ client: clientFor(server), model: 'gpt-5.4' });
    await session.addItems(conversation(1));
    await session.runCompaction({ responseId: 'resp_42', force: true });
    expect(server.requests[0]!.body).toEqual({ model: 'gpt-5.4', previous_response_id: 'resp_42' });
  });

  it('asks the decision hook with copies of the candidates and the stored items', async () => {
    const server = await fakeServer();
    const seen: Array<{ candidates: number; items: number; mode: string }> = [];
    const session = new OpenAIResponsesCompactionSession({
      client: clientFor(server),
      model: 'gpt-5.4',
      shouldTriggerCompaction: ({ compactionCandidateItems, sessionItems, compactionMode }) => {
        seen.push({ candidates: compactionCandidateItems.length, items: sessionItems.length, mode: compactionMode });
        sessionItems.length = 0;
        return false;
      },
    });
    await session.addItems(conversation(2));
    expect(await session.runCompaction()).toBeNull();
    expect(seen).toEqual([{ candidates: 6, items: 8, mode: 'input' }]);
    expect(await session.getItems()).toHaveLength(8);
  });

  it('refuses history over maxRollbackItems and keeps it', async () => {
    const server = await fakeServer();
    const session = new OpenAIResponsesCompactionSession({ client: clientFor(server), model: 'gpt-5.4', maxRollbackItems: 3 });
    await session.addItems(conversation(1));
    const error = await rejectionOf(session.runCompaction({ force: true }));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('Compaction history exceeds maxRollbackItems; history was retained.');
    expect(server.requests).toHaveLength(0);
    expect(await session.getItems()).toHaveLength(4);
  });

  it('puts the history back when the store fails to take the compacted items', async () => {
    const server = await fakeServer();
    const stored: AgentInputItem[] = [];
    let failNextAdd = false;
    const store: Session = {
      getSessionId: async () => 's',
      getItems: async (limit) => (limit === undefined ? [...stored] : stored.slice(-limit)),
      addItems: async (items) => {
        if (failNextAdd) {
          failNextAdd = false;
          throw new Error('disk full');
        }
        stored.push(...items);
      },
      popItem: async () => stored.pop(),
      clearSession: async () => void stored.splice(0),
    };
    const session = new OpenAIResponsesCompactionSession({ client: clientFor(server), model: 'gpt-5.4', underlyingSession: store });
    await session.addItems(conversation(1));
    failNextAdd = true;
    expect(String(await rejectionOf(session.runCompaction({ force: true, store: false })))).toContain('disk full');
    expect(stored).toEqual(conversation(1));
  });

  it('checks its options', () => {
    expect(() => new OpenAIResponsesCompactionSession({ model: 'claude-3' })).toThrow('Unsupported model for OpenAI responses compaction: "claude-3"');
    expect(() => new OpenAIResponsesCompactionSession({ maxRollbackItems: 0 })).toThrow('maxRollbackItems must be a positive integer');
    expect(
      () => new OpenAIResponsesCompactionSession({ underlyingSession: new OpenAIConversationsSession({ apiKey: 'sk', conversationId: 'conv_1' }) }),
    ).toThrow('does not support OpenAIConversationsSession');
    expect(() => new OpenAIResponsesCompactionSession({ model: 'ft:gpt-4o-mini:org:proj' })).not.toThrow();
  });

  it('needs a response id for previous_response_id compaction', async () => {
    const server = await fakeServer();
    const session = new OpenAIResponsesCompactionSession({ client: clientFor(server), model: 'o3', compactionMode: 'previous_response_id' });
    expect(String(await rejectionOf(session.runCompaction()))).toContain('requires a responseId');
  });

  it('compacts automatically only while its ownership receipt is current and the exchange covers the history', async () => {
    const server = await fakeServer();
    const session = new OpenAIResponsesCompactionSession({ client: clientFor(server), model: 'gpt-5.4' });
    await session.addItems(conversation(3));
    const { items, ownership } = await session.getItemsWithCompactionOwnership();
    await session.addItemsWithCompactionOwnership([call('c9')], ownership);
    const exchange = { items: [...items, call('c9')], responseId: 'resp_1' };
    // A write by someone else makes the receipt stale.
    const stale = await session.getItemsWithCompactionOwnership();
    await session.addItems([user('late')]);
    expect(await session.runCompaction({ store: false }, undefined, stale.ownership, exchange)).toBeNull();
    expect(await session.runCompaction({ store: false }, undefined, ownership, undefined)).toBeNull();
    expect(server.requests).toHaveLength(0);
  });
});
