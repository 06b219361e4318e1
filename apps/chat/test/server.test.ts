import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBackend, type ChatBackend } from '../src/backend.js';
import { GREETING } from '../src/script.js';
import { createChatServer, type ChatServer } from '../src/server.js';

// The server over plain HTTP (no browser): what it refuses, and the history a reload reads.
let backend: ChatBackend;
let chat: ChatServer;
let url: string;
const errors: unknown[] = [];

beforeAll(async () => {
  backend = await connectBackend({}, { eventDelayMs: 0, deltaChunks: 2 });
  chat = await createChatServer({ runner: backend.runner, model: backend.model, dbPath: ':memory:', researchStepMs: 1, onError: (error) => errors.push(error) });
  url = await chat.listen();
});

afterAll(async () => {
  await chat?.close();
  await backend?.close();
});

const message = (text: string) => ({ id: 'u1', role: 'user', parts: [{ type: 'text', text }] });
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}api/chat`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('the chat server', () => {
  it('answers useChat with the UI message stream, and the conversation reads back from the database', async () => {
    const response = await post({ id: 'greet', messages: [message('Hello')] });
    expect([response.status, response.headers.get('x-vercel-ai-ui-message-stream')]).toEqual([200, 'v1']);
    expect(await response.text()).toContain('data: [DONE]');
    const history = (await (await fetch(`${url}api/chats/greet`)).json()) as { messages: Array<{ role: string; parts: Array<{ type: string; text?: string }> }> };
    expect(history.messages.map((m) => [m.role, m.parts.filter((p) => p.type === 'text').map((p) => p.text).join('')])).toEqual([
      ['user', 'Hello'],
      ['assistant', GREETING],
    ]);
    expect(await (await fetch(`${url}api/chats/never-used`)).json()).toEqual({ messages: [] });
  });

  it('refuses other sites (403), other methods (405), what useChat would not send (400) and a refund decision nobody asked for (409)', async () => {
    expect((await post({ id: 'x', messages: [message('Hi')] }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await fetch(`${url}api/chat`)).status).toBe(405);
    const bad = await post({ id: '', messages: [] });
    expect([bad.status, await bad.text()]).toEqual([400, 'The chat id ("id") must be a non-empty string of at most 200 characters, got "".']);
    const stale = await post({
      id: 'nothing-waits',
      messages: [{ id: 'a1', role: 'assistant', parts: [{ type: 'dynamic-tool', toolName: 'refund', toolCallId: 'call_9', state: 'approval-responded', input: {}, approval: { id: 'call_9', approved: true } }] }],
    });
    expect([stale.status, await stale.text()]).toEqual([409, 'No approval is waiting in chat "nothing-waits": the decision for refund (call_9) is for a call that is unknown to this chat or was decided already.']);
    expect(chat.ledger.refunds).toEqual([]);
    expect(errors).toEqual([]);
  });
});
