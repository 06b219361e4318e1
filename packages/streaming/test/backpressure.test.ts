import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelStream } from '@baton/testing';
import { Agent, run, type ModelStreamEvent, type RunStreamEvent, type StreamedRunResult } from '@baton/core';
import { notify, streamingTool } from '../src/index.js';
import { aborted, deferred, sleep, within } from './helpers.js';

const TOTAL = 200;

/** A streaming tool that yields `TOTAL` notifications and counts how many it produced. */
function counter() {
  const state = { steps: 0, finished: false, cleanedUp: false, signal: undefined as AbortSignal | undefined };
  const count = streamingTool({
    name: 'count',
    description: '',
    parameters: z.object({}),
    async *execute(_input, _ctx, details) {
      state.signal = details.signal;
      try {
        for (let i = 1; i <= TOTAL; i++) {
          state.steps = i;
          yield notify(i);
        }
        state.finished = true;
        return `counted to ${TOTAL}`;
      } finally {
        state.cleanedUp = true;
      }
    },
  });
  return { state, count };
}

/** Waits until `read()` has stopped changing (the producer is blocked), then returns it. */
async function settled(read: () => number): Promise<number> {
  let last = -1;
  let stable = 0;
  for (let i = 0; i < 200; i++) {
    const now = read();
    stable = now === last ? stable + 1 : 0;
    if (stable >= 3) return now; // unchanged for 60 ms
    last = now;
    await sleep(20);
  }
  throw new Error(`the producer never paused (at ${last})`);
}

/** Reads events until `stop` says so; the iterator is kept so reading can resume. */
async function readUntil(iterator: AsyncIterator<RunStreamEvent>, stop: (e: RunStreamEvent) => boolean, into: RunStreamEvent[] = []) {
  for (;;) {
    const next = await iterator.next();
    if (next.done) return into;
    into.push(next.value);
    if (stop(next.value)) return into;
  }
}

const isNotify = (e: RunStreamEvent) => e.type === 'notify_stream_event';

describe('backpressure on a streaming tool', () => {
  it.each([1, 4, 16])('with streamBufferSize %i, a paused consumer holds the tool at the buffer size; reading again finishes it', async (size) => {
    const { state, count } = counter();
    const model = new ScriptedModel([[functionCall('count', {}, { callId: 'k1' })], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'K', model, tools: [count] }), 'go', { stream: true, streamBufferSize: size });
    const iterator = result[Symbol.asyncIterator]();
    const seen = await readUntil(iterator, isNotify);

    // The consumer stopped right after the first notification: the tool fills the buffer, then waits.
    const paused = await settled(() => state.steps);
    expect(paused).toBeGreaterThanOrEqual(size);
    expect(paused).toBeLessThanOrEqual(size + 2);
    expect(state.finished).toBe(false);
    expect(model.calls).toHaveLength(1);

    await readUntil(iterator, () => false, seen);
    await result.completed;
    expect(state.steps).toBe(TOTAL);
    expect(seen.filter(isNotify).map((e) => (e.type === 'notify_stream_event' ? e.data : undefined))).toEqual(
      Array.from({ length: TOTAL }, (_, i) => i + 1),
    );
    expect(result.finalOutput).toBe('done');
  });

  it('bounds a streaming tool two agent levels down (each level has its own buffer of the same size)', async () => {
    const size = 4;
    const { state, count } = counter();
    const innerModel = new ScriptedModel([[functionCall('count', {}, { callId: 'k1' })], [assistantMessage('inner done')]]);
    const inner = new Agent({ name: 'Inner', model: innerModel, tools: [count] });
    const model = new ScriptedModel([[functionCall('inner', { input: 'count' }, { callId: 'i1' })], [assistantMessage('done')]]);
    const outer = new Agent({ name: 'Outer', model, tools: [inner.asTool({ toolName: 'inner', streaming: true })] });
    const result = await run(outer, 'go', { stream: true, streamBufferSize: size });
    const iterator = result[Symbol.asyncIterator]();
    const seen = await readUntil(iterator, isNotify);

    const paused = await settled(() => state.steps);
    expect(paused).toBeLessThanOrEqual(2 * size + 3); // the outer buffer + the nested run's buffer
    expect(state.finished).toBe(false);

    await readUntil(iterator, () => false, seen);
    await result.completed;
    expect(state.steps).toBe(TOTAL);
    expect(seen.filter(isNotify)).toHaveLength(TOTAL);
    expect(result.finalOutput).toBe('done');
  });

  it('bounds model deltas too: a paused consumer stops the model stream', async () => {
    let produced = 0;
    const model = new ScriptedModel([
      modelStream(async function* (): AsyncIterable<ModelStreamEvent> {
        yield { type: 'response_started' };
        for (let i = 0; i < 5000; i++) {
          produced = i + 1;
          yield { type: 'output_text_delta', delta: 'x' };
        }
        yield { type: 'response_done', response: { id: 'r', usage: {}, output: [assistantMessage('x'.repeat(5000))] } };
      }),
    ]);
    const result = await run(new Agent({ name: 'M', model }), 'go', { stream: true, streamBufferSize: 8 });
    const iterator = result[Symbol.asyncIterator]();
    await readUntil(iterator, (e) => e.type === 'raw_model_stream_event' && e.data.type === 'output_text_delta');
    expect(await settled(() => produced)).toBeLessThanOrEqual(8 + 3);
    await readUntil(iterator, () => false);
    await result.completed;
    expect(produced).toBe(5000);
  });
});

describe('cancelling mid-tool', () => {
  async function startWaitingTool() {
    const started = deferred<AbortSignal>();
    let cleanedUp = false;
    let resumedAfterAbort = false;
    const wait = streamingTool({
      name: 'wait',
      description: '',
      parameters: z.object({}),
      async *execute(_input, _ctx, details) {
        try {
          started.resolve(details.signal);
          yield notify('started');
          await aborted(details.signal);
          yield notify('after abort');
          resumedAfterAbort = true;
          return 'never';
        } finally {
          cleanedUp = true;
        }
      },
    });
    const model = new ScriptedModel([[functionCall('wait', {}, { callId: 'w1' })], [assistantMessage('never')]]);
    const result = await run(new Agent({ name: 'W', model, tools: [wait] }), 'go', { stream: true });
    return { result, model, started: started.promise, state: () => ({ cleanedUp, resumedAfterAbort }) };
  }

  async function expectCancelled(result: StreamedRunResult, signal: AbortSignal, model: ScriptedModel, state: () => { cleanedUp: boolean; resumedAfterAbort: boolean }) {
    await within(aborted(signal), 1000, 'the tool’s signal did not fire');
    await within(result.completed, 1000, 'completed did not settle after cancel');
    expect(result.cancelled).toBe(true);
    expect(result.error).toBeNull();
    await within(
      (async () => {
        while (!state().cleanedUp) await sleep(5);
      })(),
      1000,
      'the generator’s finally did not run',
    );
    expect(state().resumedAfterAbort).toBe(false);
    expect(model.calls).toHaveLength(1); // no further turn
  }

  it('breaking out of the loop aborts the tool, runs its finally, and starts no further turn', async () => {
    const { result, model, started, state } = await startWaitingTool();
    for await (const event of result) if (event.type === 'notify_stream_event') break;
    await expectCancelled(result, await started, model, state);
  });

  it('cancel() while the tool is blocked on a full buffer releases it at once', async () => {
    const { state: counted, count } = counter();
    const model = new ScriptedModel([[functionCall('count', {}, { callId: 'k1' })], [assistantMessage('never')]]);
    const result = await run(new Agent({ name: 'K', model, tools: [count] }), 'go', { stream: true, streamBufferSize: 2 });
    await readUntil(result[Symbol.asyncIterator](), isNotify);
    const paused = await settled(() => counted.steps);
    result.cancel();
    await within(result.completed, 1000, 'completed did not settle after cancel');
    expect(result.cancelled).toBe(true);
    expect(counted.signal?.aborted).toBe(true);
    await within(
      (async () => {
        while (!counted.cleanedUp) await sleep(5);
      })(),
      1000,
      'the generator’s finally did not run',
    );
    expect(counted.steps).toBeLessThanOrEqual(paused + 1);
    expect(counted.finished).toBe(false);
    expect(model.calls).toHaveLength(1);
  });

  it('the run’s signal option cancels a streaming tool the same way', async () => {
    const controller = new AbortController();
    const started = deferred<AbortSignal>();
    let cleanedUp = false;
    const wait = streamingTool({
      name: 'wait',
      description: '',
      parameters: z.object({}),
      async *execute(_input, _ctx, details) {
        try {
          yield notify('started');
          started.resolve(details.signal);
          await aborted(details.signal);
          return 'never';
        } finally {
          cleanedUp = true;
        }
      },
    });
    const model = new ScriptedModel([[functionCall('wait', {}, { callId: 'w1' })]]);
    const result = await run(new Agent({ name: 'W', model, tools: [wait] }), 'go', { stream: true, signal: controller.signal });
    const reading = (async () => {
      for await (const _event of result) {
        // keep reading until the run is cancelled
      }
    })();
    const signal = await started.promise;
    controller.abort();
    await within(aborted(signal), 1000, 'the tool’s signal did not fire');
    await within(reading, 1000, 'the event loop did not end');
    await within(result.completed.catch(() => undefined), 1000, 'completed did not settle');
    expect(result.cancelled).toBe(true);
    await within(
      (async () => {
        while (!cleanedUp) await sleep(5);
      })(),
      1000,
      'the generator’s finally did not run',
    );
  });
});
