import { describe, expect, it } from 'vitest';
import { Agent, run, tool } from '@baton/core';
import { NotifyStreamEvent, RunRawModelStreamEvent, StreamingToolContextEvent, ToolStreamEndEvent, ToolStreamStartEvent, type RunStreamEvent } from '@baton/types';
import { z } from 'zod';
import { aisdk } from '../src/index.js';
import { UserError } from '@baton/types';
import { applyAiSdkApprovalResponses, createAiSdkTextStreamResponse, createAiSdkUiMessageStream, createAiSdkUiMessageStreamResponse, type AiSdkUiMessageChunk } from '../src/ui.js';
import { stream, usage, v4Model, waitFor } from './helpers.js';

/** A streamed model turn: the given text, or tool calls. */
function turn(content: { text?: string; calls?: Array<{ id: string; name: string; input: string }> }) {
  return stream([
    { type: 'stream-start' as const, warnings: [] },
    ...(content.text === undefined
      ? []
      : [{ type: 'text-start' as const, id: 't' }, { type: 'text-delta' as const, id: 't', delta: content.text }, { type: 'text-end' as const, id: 't' }]),
    ...(content.calls ?? []).map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.input })),
    { type: 'finish' as const, finishReason: { unified: content.calls ? ('tool-calls' as const) : ('stop' as const), raw: undefined }, usage: usage(1, 1) },
  ]);
}

async function sseChunks(response: Response): Promise<AiSdkUiMessageChunk[]> {
  const text = await response.text();
  expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: ') && block !== 'data: [DONE]')
    .map((block) => JSON.parse(block.slice('data: '.length)) as AiSdkUiMessageChunk);
}

async function* eventsOf(events: RunStreamEvent[]): AsyncGenerator<RunStreamEvent> {
  yield* events;
}

describe('createAiSdkUiMessageStreamResponse', () => {
  it('streams a run with a tool call as useChat reads it: one message, a step per model response', async () => {
    const weather = tool({ name: 'get_weather', description: 'Weather', parameters: z.object({ city: z.string() }), execute: ({ city }) => `${city}: sunny` });
    const model = aisdk(v4Model([turn({ calls: [{ id: 'c1', name: 'get_weather', input: '{"city":"Lisbon"}' }] }), turn({ text: 'Sunny in Lisbon.' })]));
    const result = await run(new Agent({ name: 'A', model, tools: [weather] }), 'Weather?', { stream: true });
    const response = createAiSdkUiMessageStreamResponse(result, { headers: { 'x-chat': '1' } });
    expect([response.headers.get('content-type'), response.headers.get('x-vercel-ai-ui-message-stream'), response.headers.get('x-chat')]).toEqual(['text/event-stream', 'v1', '1']);
    const chunks = await sseChunks(response);
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      'start',
      'start-step',
      'tool-input-start',
      'tool-input-available',
      'tool-output-available',
      'finish-step',
      'start-step',
      'text-start',
      'text-delta',
      'text-end',
      'finish-step',
      'finish',
    ]);
    expect(chunks.find((chunk) => chunk.type === 'tool-input-available')).toMatchObject({ toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Lisbon' }, dynamic: true });
    expect(chunks.find((chunk) => chunk.type === 'tool-output-available')).toMatchObject({ toolCallId: 'c1', output: 'Lisbon: sunny' });
    expect(chunks.find((chunk) => chunk.type === 'text-delta')).toMatchObject({ delta: 'Sunny in Lisbon.' });
  });

  it('an approval is a tool-approval-request after the call it asks about', async () => {
    const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ amount: z.number() }), needsApproval: true, execute: () => 'refunded' });
    const model = aisdk(v4Model([turn({ calls: [{ id: 'r1', name: 'refund', input: '{"amount":5}' }] })]));
    const result = await run(new Agent({ name: 'A', model, tools: [refund] }), 'Refund me', { stream: true });
    const chunks = await sseChunks(createAiSdkUiMessageStreamResponse(result));
    const types = chunks.map((chunk) => chunk.type);
    expect(types.indexOf('tool-approval-request')).toBeGreaterThan(types.indexOf('tool-input-available'));
    expect(chunks.find((chunk) => chunk.type === 'tool-approval-request')).toEqual({ type: 'tool-approval-request', toolCallId: 'r1', approvalId: 'r1' });
    expect(result.interruptions).toHaveLength(1);
  });

  it("a streaming tool's progress and a nested agent's text are one data-tool-progress part per call, not message text", async () => {
    const nested = (delta: string) => new StreamingToolContextEvent('research', 'call-r', new RunRawModelStreamEvent({ type: 'output_text_delta', delta }));
    const chunks: AiSdkUiMessageChunk[] = [];
    const reader = createAiSdkUiMessageStream(
      eventsOf([new ToolStreamStartEvent('research', 'call-r', '{}'), new NotifyStreamEvent({ found: 3 }, 'research', 'call-r', 'sources'), nested('Found '), nested('three.'), new ToolStreamEndEvent('research', 'call-r', 'done')]),
    ).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    const progress = chunks.filter((chunk) => chunk.type === 'data-tool-progress');
    expect(progress).toHaveLength(5);
    expect(new Set(progress.map((chunk) => (chunk as { id?: string }).id))).toEqual(new Set(['progress-call-r']));
    expect(progress.at(-1)).toMatchObject({ data: { toolCallId: 'call-r', toolName: 'research', status: 'done', text: 'Found three.', notes: [{ data: { found: 3 }, tag: 'sources' }] } });
    expect(chunks.some((chunk) => chunk.type === 'text-delta')).toBe(false);
  });

  it('a run that fails ends the stream with an error chunk', async () => {
    const failing = (async function* (): AsyncGenerator<RunStreamEvent> {
      yield new RunRawModelStreamEvent({ type: 'response_started' });
      throw new Error('model unavailable');
    })();
    const chunks = await sseChunks(createAiSdkUiMessageStreamResponse(failing));
    expect(chunks.map((chunk) => chunk.type)).toEqual(['start', 'start-step', 'finish-step', 'error']);
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'model unavailable' });
  });

  it('pulls one event per chunk read (a slow client slows the run) and cancelling stops the source', async () => {
    let produced = 0;
    let stopped = false;
    const source = (async function* (): AsyncGenerator<RunStreamEvent> {
      try {
        for (let index = 0; index < 1000; index += 1) {
          produced += 1;
          yield new RunRawModelStreamEvent({ type: 'output_text_delta', delta: `${index} ` });
        }
      } finally {
        stopped = true;
      }
    })();
    const reader = createAiSdkUiMessageStream(source).getReader();
    for (let index = 0; index < 5; index += 1) await reader.read();
    expect(produced).toBeLessThan(5);
    await reader.cancel();
    expect(stopped).toBe(true);
  });
});

describe('a client that goes away', () => {
  const hanging = () =>
    v4Model([
      stream(
        [
          { type: 'stream-start' as const, warnings: [] },
          { type: 'text-start' as const, id: 't' },
          { type: 'text-delta' as const, id: 't', delta: 'Partial' },
        ],
        { hangAfter: 3 },
      ),
    ]);

  it("cancels the run: the model's request is aborted", async () => {
    const model = hanging();
    const result = await run(new Agent({ name: 'A', model: aisdk(model) }), 'Hi', { stream: true });
    const reader = createAiSdkUiMessageStreamResponse(result).body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('Partial')) seen += decoder.decode((await reader.read()).value);
    await reader.cancel();
    await waitFor(() => model.calls[0]?.abortSignal?.aborted === true);
    expect(model.cancelled[0]).toBe(true);
  });

  it("with onDisconnect: 'continue', the run goes on unread", async () => {
    let calls = 0;
    const slowTool = tool({ name: 'step', description: 'A step', parameters: z.object({}), execute: () => `done ${(calls += 1)}` });
    const model = aisdk(v4Model([turn({ calls: [{ id: 'c1', name: 'step', input: '{}' }] }), turn({ text: 'Finished.' })]));
    const result = await run(new Agent({ name: 'A', model, tools: [slowTool] }), 'Go', { stream: true });
    const reader = createAiSdkUiMessageStream(result, { onDisconnect: 'continue' }).getReader();
    await reader.read();
    await reader.cancel();
    await result.completed;
    expect(calls).toBe(1);
    expect(result.finalOutput).toBe('Finished.');
  });
});

describe('applyAiSdkApprovalResponses', () => {
  it("applies the chat's decision to the paused run, with who and when, and the resumed run goes on", async () => {
    let refunded = 0;
    const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ amount: z.number() }), needsApproval: true, execute: ({ amount }) => `refunded ${(refunded += amount)}` });
    const model = aisdk(v4Model([turn({ calls: [{ id: 'r1', name: 'refund', input: '{"amount":5}' }] }), turn({ text: 'Refunded.' })]));
    const agent = new Agent({ name: 'A', model, tools: [refund] });
    const paused = await run(agent, 'Refund me', { stream: true });
    const chunks = await sseChunks(createAiSdkUiMessageStreamResponse(paused));
    const request = chunks.find((chunk) => chunk.type === 'tool-approval-request') as { approvalId: string; toolCallId: string };
    // What useChat sends back after Approve: the assistant message's tool part, approval-responded.
    const messages = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Refund me' }] },
      { id: 'a1', role: 'assistant', parts: [{ type: 'dynamic-tool', toolName: 'refund', toolCallId: request.toolCallId, state: 'approval-responded', input: { amount: 5 }, approval: { id: request.approvalId, approved: true, reason: 'customer is right' } }] },
    ];
    const state = paused.state;
    const applied = applyAiSdkApprovalResponses(state, messages, { decidedBy: 'agent@example.com', decidedAt: new Date('2026-01-02T03:04:05Z') });
    expect(applied).toEqual([{ approvalId: 'r1', toolCallId: 'r1', toolName: 'refund', approved: true, reason: 'customer is right' }]);
    expect(JSON.stringify(state.toJSON())).toContain('agent@example.com');
    const resumed = await run(agent, state, { stream: true });
    const resumedChunks = await sseChunks(createAiSdkUiMessageStreamResponse(resumed));
    expect(resumedChunks.find((chunk) => chunk.type === 'tool-output-available')).toMatchObject({ toolCallId: 'r1', output: 'refunded 5' });
    expect(resumed.finalOutput).toBe('Refunded.');
    // The same decision again: the call is no longer waiting; nothing is applied.
    expect(() => applyAiSdkApprovalResponses(resumed.state, messages)).toThrow(UserError);
    expect(() => applyAiSdkApprovalResponses(resumed.state, messages)).toThrow(/No approval is waiting for the tool call "r1".*Waiting: none/);
  });
});

describe('createAiSdkTextStreamResponse', () => {
  it("streams a run's text with plain-text headers", async () => {
    const model = aisdk(v4Model([turn({ text: 'Hello there.' })]));
    const result = await run(new Agent({ name: 'A', model }), 'Hi', { stream: true });
    const response = createAiSdkTextStreamResponse(result, { status: 201 });
    expect([response.status, response.headers.get('content-type'), response.headers.get('cache-control')]).toEqual([201, 'text/plain; charset=utf-8', 'no-cache']);
    expect(await response.text()).toBe('Hello there.');
  });
});
