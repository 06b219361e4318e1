import { describe, expect, it } from 'vitest';
import { Agent, MemorySession, RunState, run, tool, type ModelStreamEvent } from '@baton/core';
import { MemoryRunStateStore, approvalRecords } from '@baton/hitl-state';
import { ScriptedModel, assistantMessage, functionCall, modelStream } from '@baton/testing';
import { z } from 'zod';
import { aiSdkUiMessagesFromItems, createAiSdkChatRoute, type AiSdkChatRun, type AiSdkUiMessageChunk } from '../src/ui.js';

/** A chat with a refund tool that needs approval: one session and one paused run per chat id. */
function chatApp(model: ScriptedModel, options: { onDisconnect?: 'cancel' | 'continue'; streamBufferSize?: number } = {}) {
  const { streamBufferSize, ...routeOptions } = options;
  const refunded: number[] = [];
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => (refunded.push(amount), `refunded ${amount}`),
  });
  const agent = new Agent({ name: 'Support', model, tools: [refund] });
  const store = new MemoryRunStateStore();
  const sessions = new Map<string, MemorySession>();
  const sessionOf = (chatId: string) => sessions.get(chatId) ?? sessions.set(chatId, new MemorySession()).get(chatId)!;
  const runs: AiSdkChatRun[] = [];
  const errors: unknown[] = [];
  const route = createAiSdkChatRoute({
    store,
    loadState: (text) => RunState.fromString(agent, text),
    run: async (input, { chatId }) => {
      const result = await run(agent, input, { stream: true, session: sessionOf(chatId), ...(streamBufferSize === undefined ? {} : { streamBufferSize }) });
      runs.push(result);
      return result;
    },
    decidedBy: (request) => request.headers.get('x-user') ?? undefined,
    onError: (error) => errors.push(error),
    ...routeOptions,
  });
  return { route, store, sessionOf, runs, refunded, errors };
}

function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request('http://chat.test/api/chat', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

const userMessage = (text: string, id = 'u1') => ({ id, role: 'user', parts: [{ type: 'text', text }] });
/** What useChat sends back after Approve / Reject: the assistant message with the tool part approval-responded. */
const decision = (toolCallId: string, approved: boolean, id = 'a1') => ({
  id,
  role: 'assistant',
  parts: [{ type: 'step-start' }, { type: 'dynamic-tool', toolName: 'refund', toolCallId, state: 'approval-responded', input: { amount: 5 }, approval: { id: toolCallId, approved, ...(approved ? {} : { reason: 'not eligible' }) } }],
});

async function chunksOf(response: Response): Promise<AiSdkUiMessageChunk[]> {
  expect(response.status).toBe(200);
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: ') && block !== 'data: [DONE]')
    .map((block) => JSON.parse(block.slice('data: '.length)) as AiSdkUiMessageChunk);
}

const refundTurns = () => [[assistantMessage('Let me refund that.'), functionCall('refund', { amount: 5 }, { callId: 'call_r1' })], [assistantMessage('Refund done.')]];

describe('createAiSdkChatRoute', () => {
  it('a run that pauses is stored under the chat id; the Approve from useChat resumes it into the same message, with who and when recorded', async () => {
    const app = chatApp(new ScriptedModel(refundTurns()));
    const first = await chunksOf(await app.route.POST(post({ id: 'chat-1', messages: [userMessage('Refund order 42')], trigger: 'submit-message' })));
    expect(first.find((chunk) => chunk.type === 'tool-approval-request')).toEqual({ type: 'tool-approval-request', toolCallId: 'call_r1', approvalId: 'call_r1' });
    // The outcome is stored before the stream ends, so an Approve that follows at once finds it.
    expect((await app.store.load('chat-1'))?.status).toBe('paused');
    expect(await app.route.pendingApprovals('chat-1')).toEqual([{ toolCallId: 'call_r1', toolName: 'refund' }]);

    const resumed = await chunksOf(await app.route.POST(post({ id: 'chat-1', messages: [userMessage('Refund order 42'), decision('call_r1', true)] }, { 'x-user': 'ada@example.com' })));
    expect(resumed[0]).toEqual({ type: 'start', messageId: 'a1' });
    expect(resumed.find((chunk) => chunk.type === 'tool-output-available')).toMatchObject({ toolCallId: 'call_r1', output: 'refunded 5' });
    expect(resumed.filter((chunk) => chunk.type === 'text-delta').map((chunk) => (chunk as { delta: string }).delta).join('')).toBe('Refund done.');
    expect(app.refunded).toEqual([5]);

    const stored = await app.store.load('chat-1');
    expect(stored?.status).toBe('completed');
    const [record] = approvalRecords(stored!.state);
    expect(record).toMatchObject({ callId: 'call_r1', status: 'approved', decidedBy: 'ada@example.com' });
    expect(Date.now() - Date.parse(record!.decidedAt!)).toBeLessThan(60_000);
    expect(await app.route.pendingApprovals('chat-1')).toEqual([]);
  });

  it('a Reject resumes the run with the call refused', async () => {
    const app = chatApp(new ScriptedModel([refundTurns()[0]!, [assistantMessage('No refund then.')]]));
    await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Refund')] })));
    const resumed = await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Refund'), decision('call_r1', false)] })));
    expect(app.refunded).toEqual([]);
    expect(resumed.some((chunk) => chunk.type === 'text-delta' && chunk.delta === 'No refund then.')).toBe(true);
    expect(approvalRecords((await app.store.load('c'))!.state)[0]).toMatchObject({ status: 'rejected', reason: 'not eligible' });
  });

  it('a decision for an unknown call, or one decided already, is a 409 naming it, and the run is untouched', async () => {
    const model = new ScriptedModel(refundTurns());
    const app = chatApp(model);
    await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Refund')] })));
    const before = await app.store.load('c');

    const unknown = await app.route.POST(post({ id: 'c', messages: [userMessage('Refund'), decision('call_nope', true)] }));
    expect(unknown.status).toBe(409);
    expect(await unknown.text()).toMatch(/No approval is waiting for the tool call "call_nope".*Waiting: refund \(call_r1\)/);
    const after = await app.store.load('c');
    expect([after?.status, after?.revision, after?.state]).toEqual(['paused', before?.revision, before?.state]);
    expect(model.calls).toHaveLength(1);

    await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Refund'), decision('call_r1', true)] })));
    const again = await app.route.POST(post({ id: 'c', messages: [userMessage('Refund'), decision('call_r1', true)] }));
    expect(again.status).toBe(409);
    expect(await again.text()).toMatch(/No approval is waiting in chat "c".*refund \(call_r1\).*decided already/);
    expect(app.refunded).toEqual([5]);

    const elsewhere = await app.route.POST(post({ id: 'other-chat', messages: [userMessage('Refund'), decision('call_r1', true)] }));
    expect(elsewhere.status).toBe(409);
    expect(app.errors).toEqual([]);
  });

  it('a new message while a decision is awaited is a 409; after the run completed, the chat goes on and may pause again', async () => {
    const app = chatApp(new ScriptedModel([...refundTurns(), [functionCall('refund', { amount: 7 }, { callId: 'call_r2' })], [assistantMessage('Second refund done.')]]));
    await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Refund')] })));
    const blocked = await app.route.POST(post({ id: 'c', messages: [userMessage('Refund'), userMessage('Hello?', 'u2')] }));
    expect(blocked.status).toBe(409);
    expect(await blocked.text()).toBe('Chat "c" is waiting for a decision on refund (call_r1): approve or reject it before sending a new message.');

    await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Refund'), decision('call_r1', true)] })));
    const second = await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Refund'), decision('call_r1', true), userMessage('Another one', 'u2')] })));
    expect(second.some((chunk) => chunk.type === 'tool-approval-request' && chunk.toolCallId === 'call_r2')).toBe(true);
    expect((await app.store.load('c'))?.status).toBe('paused');
    await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Another one', 'u2'), decision('call_r2', true, 'a2')] })));
    expect(app.refunded).toEqual([5, 7]);
  });

  it('what is not a useChat request is a 400 saying what is wrong', async () => {
    const app = chatApp(new ScriptedModel([]));
    const cases: Array<[Request, RegExp]> = [
      [post('{not json'), /not JSON/],
      [post({ messages: [userMessage('Hi')] }), /chat id \("id"\) must be a non-empty string.*got nothing/],
      [post({ id: 'c', messages: [] }), /"messages" must be a non-empty array/],
      [post({ id: 'c', messages: [{ role: 'robot', parts: [] }] }), /messages\[0\]\.role must be/],
      [post({ id: 'c', messages: [userMessage('   ')] }), /has no text/],
      [post({ id: 'c', messages: [userMessage('Hi')], trigger: 'regenerate-message' }), /got trigger "regenerate-message"/],
    ];
    for (const [request, message] of cases) {
      const response = await app.route.POST(request);
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(message);
    }
    expect((await app.route.POST(new Request('http://chat.test/api/chat'))).status).toBe(405);
  });

  it('the sessions hold the conversation, which reads back as the UI messages the stream built (a pending call asks again)', async () => {
    const app = chatApp(new ScriptedModel(refundTurns()));
    await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Refund order 42')] })));
    const paused = aiSdkUiMessagesFromItems(await app.sessionOf('c').getItems(), { pendingApprovals: await app.route.pendingApprovals('c') });
    expect(paused).toEqual([
      { id: 'history-0', role: 'user', parts: [{ type: 'text', text: 'Refund order 42', state: 'done' }] },
      {
        id: 'history-1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'text', text: 'Let me refund that.', state: 'done' },
          { type: 'dynamic-tool', toolName: 'refund', toolCallId: 'call_r1', state: 'approval-requested', input: { amount: 5 }, approval: { id: 'call_r1' } },
        ],
      },
    ]);
    await chunksOf(await app.route.POST(post({ id: 'c', messages: [...paused, decision('call_r1', true, 'history-1')] })));
    const done = aiSdkUiMessagesFromItems(await app.sessionOf('c').getItems());
    expect(done[1]!.parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: 'Let me refund that.', state: 'done' },
      { type: 'dynamic-tool', toolName: 'refund', toolCallId: 'call_r1', state: 'output-available', input: { amount: 5 }, output: 'refunded 5' },
      { type: 'step-start' },
      { type: 'text', text: 'Refund done.', state: 'done' },
    ]);
  });
});

describe('createAiSdkChatRoute: the stream', () => {
  /** A model turn that streams `words` deltas, counting how many it has produced. */
  function wordy(words: number, delayMs = 0) {
    const produced = { count: 0 };
    const step = modelStream(async function* (call): AsyncIterable<ModelStreamEvent> {
      yield { type: 'response_started' };
      for (let index = 0; index < words; index += 1) {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (call.request.signal?.aborted) return;
        produced.count += 1;
        yield { type: 'output_text_delta', delta: `w${index} ` };
      }
      yield { type: 'response_done', response: { id: 'r', usage: {}, output: [assistantMessage('done')] } };
    });
    return { step, produced };
  }

  it('is pulled: a slow reader slows the run instead of buffering it (past the run\'s own event buffer)', async () => {
    const { step, produced } = wordy(500);
    const app = chatApp(new ScriptedModel([step]), { streamBufferSize: 4 });
    const reader = (await app.route.POST(post({ id: 'c', messages: [userMessage('Talk')] }))).body!.getReader();
    for (let index = 0; index < 5; index += 1) await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(produced.count).toBeLessThan(20);
    await reader.cancel();
    await app.runs[0]!.completed.catch(() => undefined);
    expect(app.runs[0]!.cancelled).toBe(true);
  });

  it('a reader that goes away during a resumed run cancels it, and the paused run goes back to the store as it was', async () => {
    // The resumed run's model call streams slowly.
    const { step, produced } = wordy(1000, 2);
    const app = chatApp(new ScriptedModel([refundTurns()[0]!, step]));
    await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Refund')] })));
    const before = await app.store.load('c');
    const response = await app.route.POST(post({ id: 'c', messages: [userMessage('Refund'), decision('call_r1', true)] }));
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await app.runs[1]!.completed.catch(() => undefined);
    expect(app.runs[1]!.cancelled).toBe(true);
    let after = await app.store.load('c');
    for (let tries = 0; after?.status !== 'paused' && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      after = await app.store.load('c');
    }
    expect([after?.state, after?.claimedBy]).toEqual([before?.state, undefined]);
    expect(produced.count).toBeLessThan(1000);
  });

  it("with onDisconnect: 'continue', a resumed run that loses its reader finishes, and its outcome is stored", async () => {
    const { step } = wordy(50, 1);
    const app = chatApp(new ScriptedModel([refundTurns()[0]!, step]), { onDisconnect: 'continue' });
    await chunksOf(await app.route.POST(post({ id: 'c', messages: [userMessage('Refund')] })));
    const reader = (await app.route.POST(post({ id: 'c', messages: [userMessage('Refund'), decision('call_r1', true)] }, { 'x-user': 'ada' }))).body!.getReader();
    await reader.read();
    await reader.cancel();
    await app.runs[1]!.completed;
    expect(app.runs[1]!.cancelled).toBe(false);
    let stored = await app.store.load('c');
    for (let tries = 0; stored?.status !== 'completed' && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      stored = await app.store.load('c');
    }
    expect(approvalRecords(stored!.state)[0]).toMatchObject({ status: 'approved', decidedBy: 'ada' });
    expect(app.refunded).toEqual([5]);
    expect((await app.sessionOf('c').getItems()).at(-1)).toMatchObject({ role: 'assistant', content: [{ text: 'done' }] });
  });
});
