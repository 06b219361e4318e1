import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage, functionCall, modelError } from '@baton/testing';
import { z } from 'zod';
import { Agent, RunContext, RunState, StreamedRunResult, run, tool, type RunStreamEvent } from '../src/index.js';

const agent = new Agent({ name: 'Writer' });
const freshState = () => new RunState(new RunContext(), 'hi', agent, 5);
const delta = (text: string): RunStreamEvent => ({ type: 'raw_model_stream_event', data: { type: 'output_text_delta', delta: text } }) as RunStreamEvent;

async function drain(result: AsyncIterable<RunStreamEvent>): Promise<RunStreamEvent[]> {
  const events: RunStreamEvent[] = [];
  for await (const event of result) events.push(event);
  return events;
}

describe('a StreamedRunResult fed by hand', () => {
  it('delivers queued events, then ends when the producer is done', async () => {
    const result = new StreamedRunResult({ state: freshState() });
    result._addItem(delta('to'));
    result._addItem(delta('day'));
    result._done();
    const chunks: string[] = [];
    const reader = result.toTextStream().getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    await result.completed;
    expect(chunks.join('')).toBe('today');
    expect(result.error).toBeNull();
  });

  it('keeps thousands of queued events in order', async () => {
    const result = new StreamedRunResult({ state: freshState() });
    for (let i = 0; i < 5000; i++) result._addItem(delta(String(i)));
    result._done();
    const events = await drain(result);
    expect(events).toHaveLength(5000);
    expect((events[4999] as { data: { delta: string } }).data.delta).toBe('4999');
  });

  it('fails the reader and `completed` with the first error only', async () => {
    const result = new StreamedRunResult({ state: freshState() });
    const first = new Error('first');
    result._addItem(delta('lost'));
    result._raiseError(first);
    result._raiseError(new Error('second'));
    await expect(result.completed).rejects.toBe(first);
    await expect(drain(result)).rejects.toBe(first);
    expect(result.error).toBe(first);
  });

  it('lets the reader drain queued events before the error when asked to', async () => {
    const viaOption = new StreamedRunResult({ state: freshState() });
    viaOption._addItem(delta('kept'));
    viaOption._raiseError(new Error('after the events'), { preserveQueuedItems: true });
    const seen: RunStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of viaOption) seen.push(event);
      })(),
    ).rejects.toThrow('after the events');
    expect(seen).toHaveLength(1);

    const viaFlag = new StreamedRunResult({ state: freshState() });
    viaFlag._addItem(delta('kept'));
    viaFlag._preserveQueuedItemsOnError();
    viaFlag._raiseError(new Error('cleanup'));
    await expect(viaFlag.completed).rejects.toThrow('cleanup');
    const kept: RunStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of viaFlag) kept.push(event);
      })(),
    ).rejects.toThrow('cleanup');
    expect(kept).toHaveLength(1);
  });

  it('is cancelled by the caller’s signal; `completed` then waits for the producer to finish', async () => {
    const controller = new AbortController();
    const result = new StreamedRunResult({ state: freshState(), signal: controller.signal });
    const reader = result.toStream().getReader();
    controller.abort();
    await expect(reader.read()).resolves.toEqual({ done: true, value: undefined });
    expect(result.cancelled).toBe(true);
    expect(result._getAbortSignal().aborted).toBe(true);
    let settled = false;
    void result.completed.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    result._done();
    await expect(result.completed).resolves.toBeUndefined();
    expect(result.error).toBeNull();
  });

  it('a reader that cancels aborts the result’s signal', async () => {
    const result = new StreamedRunResult({ state: freshState() });
    const signal = result._getAbortSignal();
    await result.toStream().getReader().cancel();
    expect(signal.aborted).toBe(true);
    expect(result.cancelled).toBe(true);
  });

  it('removes its abort listener once it ends, so a kept signal holds nothing', async () => {
    const controller = new AbortController();
    const ok = new StreamedRunResult({ state: freshState(), signal: controller.signal });
    const signal = ok._getAbortSignal();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    ok._done();
    await ok.completed;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    controller.abort();
    expect(ok.cancelled).toBe(false);
    expect(signal.aborted).toBe(true); // the caller's abort still shows on the result's signal

    const failed = new StreamedRunResult({ state: freshState() });
    const failedSignal = failed._getAbortSignal();
    expect(getEventListeners(failedSignal, 'abort')).toHaveLength(1);
    failed._raiseError(new Error('boom'));
    await expect(failed.completed).rejects.toThrow('boom');
    expect(getEventListeners(failedSignal, 'abort')).toHaveLength(0);
  });

  it("the caller's signal cancels the run, and the result's signal read before or after shows it", async () => {
    const early = new AbortController();
    const before = new StreamedRunResult({ state: freshState(), signal: early.signal });
    const readBefore = before._getAbortSignal();
    early.abort(new Error('stop'));
    expect(before.cancelled).toBe(true);
    expect(readBefore.aborted).toBe(true);

    const late = new AbortController();
    const after = new StreamedRunResult({ state: freshState(), signal: late.signal });
    late.abort();
    expect(after.cancelled).toBe(true);
    expect(after._getAbortSignal().aborted).toBe(true);
    expect(after._getAbortSignal()).toBe(after._getAbortSignal());
  });

  it('a signal first read after the run ended has no listener', async () => {
    const result = new StreamedRunResult({ state: freshState() });
    result._done();
    await result.completed;
    expect(getEventListeners(result._getAbortSignal(), 'abort')).toHaveLength(0);
  });

  it('a signal already aborted cancels the run at the next microtask', async () => {
    const result = new StreamedRunResult({ state: freshState(), signal: AbortSignal.abort() });
    expect(result.cancelled).toBe(false);
    await Promise.resolve();
    expect(result.cancelled).toBe(true);
  });

  it('without a caller\'s signal, cancel() aborts the result\'s signal whether it was read before or after', () => {
    const first = new StreamedRunResult({ state: freshState() });
    const signal = first._getAbortSignal();
    expect(signal.aborted).toBe(false);
    first.cancel();
    expect(signal.aborted).toBe(true);
    const second = new StreamedRunResult({ state: freshState() });
    second.cancel();
    expect(second._getAbortSignal().aborted).toBe(true);
  });

  it('starts its turn count from the state and keeps it as a plain writable field', () => {
    const result = new StreamedRunResult({ state: freshState() });
    expect(result.currentTurn).toBe(0);
    result.currentTurn = 4;
    expect(Object.getOwnPropertyDescriptor(result, 'currentTurn')).toMatchObject({ value: 4, writable: true });
  });
});

describe('a StreamedRunResult made by the runner', () => {
  it('counts the turns whose model request started', async () => {
    const add = tool({ name: 'add', description: '', parameters: z.object({ a: z.number() }), execute: ({ a }) => a + 1 });
    const model = new ScriptedModel([[functionCall('add', { a: 1 })], [assistantMessage('2')]]);
    const result = await run(new Agent({ name: 'Calc', model, tools: [add] }), 'go', { stream: true });
    await drain(result);
    await result.completed;
    expect(result.currentTurn).toBe(2);
  });

  it('ends the iteration with the run’s error', async () => {
    const model = new ScriptedModel([modelError(new Error('model down'))]);
    const result = await run(new Agent({ name: 'Down', model }), 'go', { stream: true });
    await expect(drain(result)).rejects.toThrow('model down');
    await expect(result.completed).rejects.toThrow('model down');
  });
});
