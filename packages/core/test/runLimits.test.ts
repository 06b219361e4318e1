import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  DEFAULT_RUN_LIMITS,
  ModelStreamIdleTimeoutError,
  UserError,
  run,
  tool,
  type Model,
  type ModelRequest,
  type ModelStreamEvent,
} from '../src/index.js';
import { resultText } from './helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A tool that counts how many of its calls run at the same time. */
function countingTool() {
  const seen = { running: 0, peak: 0, order: [] as number[] };
  const counted = tool({
    name: 'work',
    description: 'work',
    parameters: z.object({ n: z.number() }),
    execute: async ({ n }) => {
      seen.running += 1;
      seen.peak = Math.max(seen.peak, seen.running);
      seen.order.push(n);
      await sleep(5);
      seen.running -= 1;
      return `done ${n}`;
    },
  });
  return { counted, seen };
}

const manyCalls = (count: number) => Array.from({ length: count }, (_, n) => functionCall('work', { n }, { callId: `c${n}` }));

describe('limits.maxConcurrentToolCalls: one response cannot start any number of tool calls at once', () => {
  it('runs at most 32 calls at once by default; the rest start in call order and every output is kept in call order', async () => {
    const { counted, seen } = countingTool();
    const model = new ScriptedModel([manyCalls(40), [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [counted] }), 'go');
    expect(DEFAULT_RUN_LIMITS.maxConcurrentToolCalls).toBe(32);
    expect(seen.peak).toBe(32);
    expect(seen.order).toEqual(Array.from({ length: 40 }, (_, n) => n));
    const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item').map((item) => (item as { output: unknown }).output);
    expect(outputs).toEqual(Array.from({ length: 40 }, (_, n) => `done ${n}`));
  });

  it('takes a lower limit from the run (or the Runner), and Infinity for none', async () => {
    const low = countingTool();
    await run(new Agent({ name: 'A', model: new ScriptedModel([manyCalls(6), [assistantMessage('ok')]]), tools: [low.counted] }), 'go', { limits: { maxConcurrentToolCalls: 2 } });
    expect(low.seen.peak).toBe(2);
    const none = countingTool();
    await run(new Agent({ name: 'A', model: new ScriptedModel([manyCalls(40), [assistantMessage('ok')]]), tools: [none.counted] }), 'go', { limits: { maxConcurrentToolCalls: Infinity } });
    expect(none.seen.peak).toBe(40);
  });
});

describe('limits.maxToolOutputChars: a huge tool output is cut before it enters history, the state and events', () => {
  const big = (text: unknown) => tool({ name: 'fetch_page', description: 'fetch', parameters: z.object({}), execute: async () => text });

  it('cuts text over the limit and says so at its end, in what the model receives, the run item and the state', async () => {
    const model = new ScriptedModel([[functionCall('fetch_page', {}, { callId: 'p1' })], [assistantMessage('ok')]]);
    const page = `${'a'.repeat(1500)}SECRET-TAIL`;
    const result = await run(new Agent({ name: 'A', model, tools: [big(page)] }), 'go', { limits: { maxToolOutputChars: 1000 } });
    const sent = resultText(model.calls[1]!, 'p1');
    expect(sent.startsWith('a'.repeat(1000))).toBe(true);
    expect(sent).not.toContain('SECRET-TAIL');
    expect(sent).toContain('[output truncated: the tool returned 1511 characters; limits.maxToolOutputChars keeps 1000]');
    const item = result.newItems.find((entry) => entry.type === 'tool_call_output_item') as { output: unknown };
    expect(item.output).toBe(sent);
    expect(result.state.toString()).not.toContain('SECRET-TAIL');
  });

  it('keeps outputs at the limit whole, objects and content parts included', async () => {
    const model = new ScriptedModel([[functionCall('fetch_page', {}, { callId: 'p1' })], [assistantMessage('ok')]]);
    await run(new Agent({ name: 'A', model, tools: [big('b'.repeat(1000))] }), 'go', { limits: { maxToolOutputChars: 1000 } });
    expect(resultText(model.calls[1]!, 'p1')).toBe('b'.repeat(1000));
  });

  it('turns content parts over the limit into cut text with the marker (an image too large is not sent)', async () => {
    const model = new ScriptedModel([[functionCall('fetch_page', {}, { callId: 'p1' })], [assistantMessage('ok')]]);
    const image = { type: 'image', image: { data: 'A'.repeat(5000), mediaType: 'image/png' } };
    await run(new Agent({ name: 'A', model, tools: [big(image)] }), 'go', { limits: { maxToolOutputChars: 1000 } });
    const sent = resultText(model.calls[1]!, 'p1');
    expect(sent.length).toBeLessThan(1200);
    expect(sent).toMatch(/\[output truncated: the tool returned \d+ characters; limits.maxToolOutputChars keeps 1000\]$/);
  });

  it('applies a default of 10,000,000 characters', async () => {
    expect(DEFAULT_RUN_LIMITS.maxToolOutputChars).toBe(10_000_000);
    const model = new ScriptedModel([[functionCall('fetch_page', {}, { callId: 'p1' })], [assistantMessage('ok')]]);
    await run(new Agent({ name: 'A', model, tools: [big('c'.repeat(10_000_001))] }), 'go');
    const sent = resultText(model.calls[1]!, 'p1');
    expect(sent).toContain('limits.maxToolOutputChars keeps 10000000');
    expect(sent.startsWith('c'.repeat(10_000_000))).toBe(true);
    expect(sent.length).toBeLessThan(10_000_200);
  });
});

/** A model whose server sends one text delta, then nothing (until the request is aborted). */
function stallingModel(seen: { signal?: AbortSignal | undefined }): Model {
  return {
    getResponse: () => Promise.reject(new Error('streamed only')),
    async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      seen.signal = request.signal;
      yield { type: 'output_text_delta', delta: 'Hel' } as ModelStreamEvent;
      await new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true }));
    },
  };
}

/** A model whose server sends one delta, goes quiet for `quietMs` whatever the request's signal says, then answers (after another delta with `resumes`). */
function deafModel(seen: { signal?: AbortSignal | undefined }, after: 'answers' | 'resumes', quietMs: number): Model {
  return {
    getResponse: () => Promise.reject(new Error('streamed only')),
    async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      seen.signal = request.signal;
      yield { type: 'output_text_delta', delta: 'Hel' } as ModelStreamEvent;
      await sleep(quietMs);
      if (after === 'resumes') yield { type: 'output_text_delta', delta: 'lo' } as ModelStreamEvent;
      yield {
        type: 'response_done',
        response: { id: 'r1', usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }, output: [assistantMessage('Hello')] },
      } as ModelStreamEvent;
    },
  };
}

/** A model stream whose deltas come `gapMs` apart, then the answer; the stalls are waits shorter than the limit. */
function drippingModel(gapMs: number, deltas: number): Model {
  return {
    getResponse: () => Promise.reject(new Error('streamed only')),
    async *getStreamedResponse(): AsyncIterable<ModelStreamEvent> {
      for (let i = 0; i < deltas; i++) {
        await new Promise((resolve) => setTimeout(resolve, gapMs));
        yield { type: 'output_text_delta', delta: 'x' } as ModelStreamEvent;
      }
      yield {
        type: 'response_done',
        response: { id: 'r1', usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }, output: [assistantMessage('x'.repeat(deltas))] },
      } as ModelStreamEvent;
    },
  };
}

describe('limits.modelStreamIdleTimeoutMs: a model stream that stalls cannot hold the run', () => {
  it('counts each wait on its own: a stream whose events all come sooner than the limit is never cut, however long it runs', async () => {
    // Six waits of 100 ms against a 400 ms limit: 600 ms of waiting in all, none of it one wait as long as the limit.
    const result = await run(new Agent({ name: 'A', model: drippingModel(100, 6) }), 'go', { stream: true, limits: { modelStreamIdleTimeoutMs: 400 } });
    for await (const _event of result);
    await expect(result.completed).resolves.toBeUndefined();
    expect(result.finalOutput).toBe('xxxxxx');
  });

  it('fails the run with ModelStreamIdleTimeoutError and aborts the request once the stream is quiet for the limit', async () => {
    const seen: { signal?: AbortSignal | undefined } = {};
    const result = await run(new Agent({ name: 'A', model: stallingModel(seen) }), 'go', { stream: true, limits: { modelStreamIdleTimeoutMs: 150 } });
    const events: string[] = [];
    const failure = await (async () => {
      try {
        for await (const event of result) events.push(event.type);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(ModelStreamIdleTimeoutError);
    expect((failure as ModelStreamIdleTimeoutError).idleTimeoutMs).toBe(150);
    expect((failure as Error).message).toContain('sent no event for 150 ms');
    expect(seen.signal?.aborted).toBe(true);
    expect(events).toContain('raw_model_stream_event'); // the delta before the stall reached the caller
    expect(DEFAULT_RUN_LIMITS.modelStreamIdleTimeoutMs).toBe(600_000);
  });

  it.each([
    ['then ends with its answer', 'answers'],
    ['then sends another delta and its answer', 'resumes'],
  ] as const)('a stream that ignores the abort of its stall and %s still fails the run with the stall', async (_name, after) => {
    const seen: { signal?: AbortSignal | undefined } = {};
    const model = deafModel(seen, after, 400);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, limits: { modelStreamIdleTimeoutMs: 120 } });
    const failure = await (async () => {
      try {
        for await (const _event of result);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(ModelStreamIdleTimeoutError);
    await expect(result.completed).rejects.toBeInstanceOf(ModelStreamIdleTimeoutError);
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.signal?.reason).toBeInstanceOf(ModelStreamIdleTimeoutError);
    expect(result.finalOutput).toBeUndefined();
  });

  it('does not count the time the caller takes to read (backpressure is not a stalled server)', async () => {
    const model = new ScriptedModel([[assistantMessage('one two three four five six')]]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, streamBufferSize: 1, limits: { modelStreamIdleTimeoutMs: 100 } });
    let read = 0;
    for await (const _event of result) {
      read += 1;
      if (read <= 4) await sleep(150);
    }
    await expect(result.completed).resolves.toBeUndefined();
    expect(result.finalOutput).toBe('one two three four five six');
  });
});

describe('bad limits', () => {
  it.each([
    [{ maxConcurrentToolCalls: 0 }, 'limits.maxConcurrentToolCalls must be a whole number of at least 1'],
    [{ maxToolOutputChars: 1.5 }, 'limits.maxToolOutputChars must be a whole number of at least 1'],
    [{ modelStreamIdleTimeoutMs: -1 }, 'limits.modelStreamIdleTimeoutMs must be a whole number of at least 0'],
    [{ maxToolCalls: 3 }, 'limits.maxToolCalls is not a run limit (known: maxConcurrentToolCalls, maxToolOutputChars, modelStreamIdleTimeoutMs)'],
  ])('%o is a UserError naming it', async (limits, message) => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const attempt = run(new Agent({ name: 'A', model }), 'go', { limits: limits as never });
    await expect(attempt).rejects.toBeInstanceOf(UserError);
    await expect(attempt).rejects.toThrow(message);
  });
});
