import { Readable } from 'node:stream';
import { Effect, Stream } from 'effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelError, modelResponder, modelStream, type RecordedModelCall } from '@baton/testing';
import {
  Agent,
  MaxTurnsExceededError,
  MemorySession,
  StreamedRunResult,
  run,
  tool,
  type AgentInputItem,
  type ModelStreamEvent,
  type RunStreamEvent,
} from '../src/index.js';
import { aborted, deferred, eventLabel, resultText, watchUnhandledRejections, within } from './helpers.js';

const add = tool({ name: 'add', description: '', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });

async function collect(result: AsyncIterable<RunStreamEvent>): Promise<RunStreamEvent[]> {
  const events: RunStreamEvent[] = [];
  for await (const event of result) events.push(event);
  return events;
}

/** The events read before the iteration failed, and its error (a failed run ends the iteration with its error). */
async function collectUntilError(result: AsyncIterable<RunStreamEvent>): Promise<{ events: RunStreamEvent[]; error: unknown }> {
  const events: RunStreamEvent[] = [];
  try {
    for await (const event of result) events.push(event);
  } catch (error) {
    return { events, error };
  }
  throw new Error('the iteration ended without the run’s error');
}

/**
 * A streamed model call that sends some text, then waits until its request is aborted. `waiting`
 * resolves once it waits (so a test cancels at a known point); `sawAbort` once the abort arrived.
 */
function streamUntilAborted() {
  const waiting = deferred();
  const sawAbort = deferred<RecordedModelCall>();
  const step = modelStream(async function* (call): AsyncIterable<ModelStreamEvent> {
    yield { type: 'response_started' };
    yield { type: 'output_text_delta', delta: 'Hel' };
    waiting.resolve();
    await aborted(call.request.signal);
    sawAbort.resolve(call);
  });
  return {
    step,
    waiting: waiting.promise,
    sawAbort: () => within(sawAbort.promise, 1000, 'the model request was not aborted'),
  };
}

describe('streamed events', () => {
  it('arrive in order: raw model events, then the items of each turn', async () => {
    const model = new ScriptedModel([
      [assistantMessage('Let me add.'), functionCall('add', { a: 1, b: 2 }, { callId: 'c1' })],
      [assistantMessage('The sum is 3.')],
    ]);
    const result = await run(new Agent({ name: 'Calc', model, tools: [add] }), 'what is 1+2?', { stream: true });
    expect(result).toBeInstanceOf(StreamedRunResult);
    const events = await collect(result);
    await result.completed;

    expect(events.map(eventLabel)).toEqual([
      'raw:response_started',
      'raw:output_text_delta',
      'raw:response_done',
      'message_output_created',
      'tool_called',
      'tool_output',
      'raw:response_started',
      'raw:output_text_delta',
      'raw:response_done',
      'message_output_created',
    ]);
    const items = events.flatMap((e) => (e.type === 'run_item_stream_event' ? [e.item] : []));
    expect(items.map((i) => i.type)).toEqual(['message_output_item', 'tool_call_item', 'tool_call_output_item', 'message_output_item']);
    expect(items.every((i) => i.agent.name === 'Calc')).toBe(true);
    expect(events.filter((e) => e.type === 'raw_model_stream_event').flatMap((e) => (e.data.type === 'output_text_delta' ? [e.data.delta] : []))).toEqual([
      'Let me add.',
      'The sum is 3.',
    ]);
    expect(model.calls.every((c) => c.streamed)).toBe(true);
    expect(result.finalOutput).toBe('The sum is 3.');
    expect(result.newItems).toEqual(items);
    expect(result.currentTurn).toBe(2);
    expect(result.error).toBeNull();
    expect(result.cancelled).toBe(false);
  });

  it('announces tool_called before a slow tool finishes, and tool_output after', async () => {
    const release = deferred();
    let finished = false;
    const slow = tool({
      name: 'slow',
      description: '',
      parameters: z.object({}),
      execute: async () => {
        await release.promise;
        finished = true;
        return 'slow result';
      },
    });
    const model = new ScriptedModel([[functionCall('slow', {}, { callId: 'c1' })], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [slow] }), 'go', { stream: true });
    const seen: string[] = [];
    await within(
      (async () => {
        for await (const event of result) {
          if (event.type !== 'run_item_stream_event') continue;
          seen.push(`${event.name}:${finished ? 'finished' : 'running'}`);
          if (event.name === 'tool_called') release.resolve(); // only now may the tool finish
        }
      })(),
      2000,
      'tool_called did not arrive while the tool was running',
    );
    await result.completed;
    expect(seen).toEqual(['tool_called:running', 'tool_output:finished', 'message_output_created:finished']);
  });

  it('keeps finalOutput undefined until the run is done', async () => {
    const release = deferred();
    const model = new ScriptedModel([
      modelStream(async function* () {
        yield { type: 'output_text_delta', delta: 'final answer' };
        await release.promise;
        yield { type: 'response_done', response: { id: 'r', usage: {}, output: [assistantMessage('final answer')] } };
      }),
    ]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    for await (const event of result) {
      if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') {
        expect(result.finalOutput).toBeUndefined();
        release.resolve();
      }
    }
    await result.completed;
    expect(result.finalOutput).toBe('final answer');
  });

  it('ends the events and shows finalOutput only once the run has finished (here: saving to the session)', async () => {
    const saving = deferred();
    const saved = deferred();
    class SlowSession extends MemorySession {
      override async addItems(items: AgentInputItem[]): Promise<void> {
        saving.resolve();
        await saved.promise;
        await super.addItems(items);
      }
    }
    const model = new ScriptedModel([[assistantMessage('final answer')]]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, session: new SlowSession() });
    let ended = false;
    const reading = collect(result).then(() => (ended = true));
    await within(saving.promise, 1000, 'the session was never saved');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(false);
    expect(result.finalOutput).toBeUndefined();
    saved.resolve();
    await reading;
    await result.completed;
    expect(result.finalOutput).toBe('final answer');
  });

  it('passes raw stream events from a scripted stream through untouched', async () => {
    const done: ModelStreamEvent = {
      type: 'response_done',
      response: { id: 'r1', usage: { requests: 1, inputTokens: 3, outputTokens: 2 }, output: [assistantMessage('ab')] },
    };
    const script: ModelStreamEvent[] = [
      { type: 'response_started' },
      { type: 'model', event: { kind: 'provider-specific' } },
      { type: 'output_text_delta', delta: 'a' },
      { type: 'output_text_delta', delta: 'b' },
      done,
    ];
    const model = new ScriptedModel([modelStream(script)]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    const events = await collect(result);
    await result.completed;
    expect(events.filter((e) => e.type === 'raw_model_stream_event').map((e) => e.data)).toEqual(script);
    expect(result.finalOutput).toBe('ab');
    expect(result.usage).toMatchObject({ requests: 1, inputTokens: 3, outputTokens: 2 });
    expect(result.lastResponseId).toBe('r1');
  });

  it('fails with ModelBehaviorError when the model stream ends without response_done', async () => {
    const model = new ScriptedModel([modelStream([{ type: 'response_started' }])]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    expect(String((await collectUntilError(result)).error)).toContain('The model stream ended without a response_done event.');
    await expect(result.completed).rejects.toThrow('The model stream ended without a response_done event.');
  });
});

describe('stream views', () => {
  it('toTextStream() yields only the text deltas', async () => {
    const model = new ScriptedModel([[functionCall('add', { a: 1, b: 1 })], [assistantMessage('Two'), assistantMessage(' it is')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [add] }), 'go', { stream: true });
    const chunks: string[] = [];
    const reader = result.toTextStream().getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    await result.completed;
    expect(chunks).toEqual(['Two', ' it is']);
    expect(result.finalOutput).toBe(' it is');
  });

  it('toTextStream({ compatibleWithNodeStreams: true }) is a Node Readable', async () => {
    const model = new ScriptedModel([[assistantMessage('node text')]]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    const readable = result.toTextStream({ compatibleWithNodeStreams: true });
    expect(readable).toBeInstanceOf(Readable);
    let text = '';
    for await (const chunk of readable) text += String(chunk);
    await result.completed;
    expect(text).toBe('node text');
  });

  it('toStream() is a web ReadableStream of the same events', async () => {
    const model = new ScriptedModel([[functionCall('add', { a: 1, b: 1 })], [assistantMessage('2')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [add] }), 'go', { stream: true });
    const stream = result.toStream();
    expect(stream).toBeInstanceOf(ReadableStream);
    const events: RunStreamEvent[] = [];
    const reader = stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) events.push(next.value);
    await result.completed;
    expect(events.filter((e) => e.type === 'run_item_stream_event').map(eventLabel)).toEqual(['tool_called', 'tool_output', 'message_output_created']);
  });

  it('toEffectStream() delivers the events as an Effect Stream', async () => {
    const model = new ScriptedModel([[assistantMessage('effect')]]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    const events = await Effect.runPromise(Stream.runCollect(result.toEffectStream()));
    await result.completed;
    expect(Array.from(events).map(eventLabel)).toEqual(['raw:response_started', 'raw:output_text_delta', 'raw:response_done', 'message_output_created']);
  });
});

describe('consumer cancel', () => {
  it('breaking out while the model streams aborts the request; completed resolves; no further model call', async () => {
    const watch = watchUnhandledRejections();
    const stream = streamUntilAborted();
    const model = new ScriptedModel([stream.step, [assistantMessage('never')]]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    for await (const event of result) {
      if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') {
        await stream.waiting;
        break;
      }
    }
    const call = await stream.sawAbort();
    expect(call.request.signal?.aborted).toBe(true);
    await expect(within(result.completed, 1000, 'completed did not settle')).resolves.toBeUndefined();
    expect(result.cancelled).toBe(true);
    expect(result.error).toBeNull();
    expect(result.finalOutput).toBeUndefined();
    expect(model.calls).toHaveLength(1);
    expect(model.remainingSteps).toBe(1);
    expect(await watch.stop()).toEqual([]);
  });

  it('breaking out while a tool runs aborts the tool; completed resolves; no further model call', async () => {
    const watch = watchUnhandledRejections();
    const toolSawAbort = deferred<boolean>();
    const toolStarted = deferred<void>();
    const waits = tool({
      name: 'waits',
      description: '',
      parameters: z.object({}),
      execute: async (_i, _c, details) => {
        toolStarted.resolve();
        await aborted(details.signal);
        toolSawAbort.resolve(true);
        return 'unused';
      },
    });
    const model = new ScriptedModel([[functionCall('waits', {})], [assistantMessage('never')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [waits] }), 'go', { stream: true });
    const consume = async () => {
      for await (const event of result) {
        // Break once the tool is really running (a cancel before it starts means it never runs).
        if (event.type === 'run_item_stream_event' && event.name === 'tool_called') {
          await toolStarted.promise;
          break;
        }
      }
    };
    await within(consume(), 1000, 'tool_called never arrived');
    await expect(within(toolSawAbort.promise, 1000, 'the tool was not aborted')).resolves.toBe(true);
    await expect(within(result.completed, 1000, 'completed did not settle')).resolves.toBeUndefined();
    expect(result.cancelled).toBe(true);
    expect(model.calls).toHaveLength(1);
    expect(await watch.stop()).toEqual([]);
  });

  it('cancelling toStream() cancels the run', async () => {
    const stream = streamUntilAborted();
    const model = new ScriptedModel([stream.step, [assistantMessage('never')]]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    const reader = result.toStream().getReader();
    expect((await reader.read()).value?.type).toBe('raw_model_stream_event');
    await stream.waiting;
    await reader.cancel();
    await stream.sawAbort();
    await result.completed;
    expect(result.cancelled).toBe(true);
    expect(model.calls).toHaveLength(1);
  });

  it('cancelling toTextStream() cancels the run', async () => {
    const stream = streamUntilAborted();
    const model = new ScriptedModel([stream.step, [assistantMessage('never')]]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    const reader = result.toTextStream().getReader();
    expect(await reader.read()).toEqual({ done: false, value: 'Hel' });
    await stream.waiting;
    await reader.cancel();
    await stream.sawAbort();
    await result.completed;
    expect(result.cancelled).toBe(true);
  });

  it('after a cancel, completed waits until the model call has settled (the model sees the abort even when nobody was reading)', async () => {
    const sawAbort = deferred();
    const release = deferred();
    const model = new ScriptedModel([
      modelStream(async function* (call) {
        yield { type: 'output_text_delta', delta: 'hello' };
        await aborted(call.request.signal);
        sawAbort.resolve();
        await release.promise;
        const error = new Error('Aborted');
        error.name = 'AbortError';
        throw error;
      }),
    ]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    const reader = result.toStream().getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    await within(sawAbort.promise, 1000, 'the model never saw the abort');
    let settled = false;
    void result.completed.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    release.resolve();
    await result.completed;
    expect(result.cancelled).toBe(true);
  });

  it('destroying the Node text stream while the model still thinks cancels the run', async () => {
    const stream = streamUntilAborted();
    const model = new ScriptedModel([stream.step, [assistantMessage('never')]]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    const readable = result.toTextStream({ compatibleWithNodeStreams: true });
    const first = await new Promise((resolve) => readable.once('data', (chunk) => resolve(String(chunk))));
    expect(first).toBe('Hel');
    await stream.waiting; // a read is in flight: the model answers nothing until it is aborted
    readable.destroy();
    await stream.sawAbort();
    await result.completed;
    expect(result.cancelled).toBe(true);
    expect(model.calls).toHaveLength(1);
  });

  it('a consumer that reads fast, then pauses, then reads again gets every model event once, in order', async () => {
    // Fast reads go straight to the model's stream; a pause lets the run read ahead into the buffer
    // (bounded); reading again drains it and goes back to the stream. The order never changes.
    const deltas: ModelStreamEvent[] = Array.from({ length: 300 }, (_, i) => ({ type: 'output_text_delta', delta: `${i} ` }));
    let produced = 0;
    const model = new ScriptedModel([
      modelStream(async function* () {
        for (const event of deltas) {
          produced += 1;
          yield event;
          if (produced % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 1)); // a network pause
        }
        yield { type: 'response_done', response: { id: 'r', usage: {}, output: [assistantMessage('x')] } };
      }),
    ]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, streamBufferSize: 8 });
    const received: string[] = [];
    let read = 0;
    for await (const event of result) {
      if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') received.push(event.data.delta);
      read += 1;
      if (read % 37 === 0) {
        const before = produced;
        await new Promise((resolve) => setTimeout(resolve, 5)); // the consumer pauses: the run reads ahead, up to the buffer
        expect(produced - before).toBeLessThanOrEqual(8 + 1);
      }
    }
    await result.completed;
    expect(received).toEqual(deltas.map((event) => (event as { delta: string }).delta));
  });

  it('a consumer that stops reading pauses the run instead of buffering without bound', async () => {
    const deltas: ModelStreamEvent[] = Array.from({ length: 50 }, (_, i) => ({ type: 'output_text_delta', delta: `${i} ` }));
    let produced = 0;
    const model = new ScriptedModel([
      modelStream(async function* () {
        for (const event of deltas) {
          produced += 1;
          yield event;
        }
        yield { type: 'response_done', response: { id: 'r', usage: {}, output: [assistantMessage('x')] } };
      }),
    ]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, streamBufferSize: 4 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(produced).toBeLessThan(10);
    const events = await collect(result);
    await result.completed;
    expect(produced).toBe(50);
    expect(events).toHaveLength(52); // 50 deltas, response_done, message_output_created
  });
});

describe('user AbortSignal (streamed)', () => {
  it('aborting the signal aborts the model request, marks the run cancelled and resolves completed', async () => {
    const controller = new AbortController();
    const stream = streamUntilAborted();
    const model = new ScriptedModel([stream.step, [assistantMessage('never')]]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, signal: controller.signal });
    const labels: string[] = [];
    for await (const event of result) {
      labels.push(eventLabel(event));
      if (labels.length === 2) {
        await stream.waiting;
        controller.abort();
      }
    }
    await stream.sawAbort();
    await result.completed;
    expect(result.cancelled).toBe(true);
    expect(labels).toEqual(['raw:response_started', 'raw:output_text_delta']);
    expect(model.calls).toHaveLength(1);
  });
});

describe('errors in a streamed run', () => {
  it('a model error rejects completed with the same error and sets error, with no unhandled rejection', async () => {
    const watch = watchUnhandledRejections();
    const boom = new Error('model exploded');
    const model = new ScriptedModel([modelError(boom)]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    const { events, error } = await collectUntilError(result); // the iteration fails with the run's error
    expect(events).toEqual([]);
    expect(error).toBe(boom);
    await expect(result.completed).rejects.toBe(boom);
    expect(result.error).toBe(boom);
    expect(result.cancelled).toBe(false);
    expect(await watch.stop()).toEqual([]);
  });

  it('a failing run whose completed nobody awaits causes no unhandled rejection', async () => {
    const watch = watchUnhandledRejections();
    const model = new ScriptedModel([modelError(new Error('ignored failure'))]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    await collectUntilError(result);
    expect(await watch.stop()).toEqual([]);
    expect((result.error as Error).message).toBe('ignored failure');
  });

  it('an error after some events surfaces on completed, with the state on the error', async () => {
    const watch = watchUnhandledRejections();
    const model = new ScriptedModel([
      [functionCall('add', { a: 1, b: 1 })],
      modelResponder(() => {
        throw new Error('second call failed');
      }),
    ]);
    const result = await run(new Agent({ name: 'A', model, tools: [add] }), 'go', { stream: true });
    const { events, error } = await collectUntilError(result);
    expect(events.filter((e) => e.type === 'run_item_stream_event').map(eventLabel)).toEqual(['tool_called', 'tool_output']);
    expect(String(error)).toContain('second call failed');
    await expect(result.completed).rejects.toThrow('second call failed');
    expect(result.finalOutput).toBeUndefined();
    expect(await watch.stop()).toEqual([]);
  });

  it('MaxTurnsExceededError surfaces on completed and error', async () => {
    const model = new ScriptedModel([[functionCall('add', { a: 1, b: 1 })], [functionCall('add', { a: 1, b: 1 })]]);
    const result = await run(new Agent({ name: 'A', model, tools: [add] }), 'go', { stream: true, maxTurns: 1 });
    expect((await collectUntilError(result)).error).toBeInstanceOf(MaxTurnsExceededError);
    await expect(result.completed).rejects.toBeInstanceOf(MaxTurnsExceededError);
    expect(result.error).toBeInstanceOf(MaxTurnsExceededError);
    expect((result.error as MaxTurnsExceededError).state?.currentTurn).toBe(1);
    expect(model.calls).toHaveLength(1);
  });

  it('tool errors go back to the model in a streamed run too', async () => {
    const failing = tool({
      name: 'failing',
      description: '',
      parameters: z.object({}),
      execute: () => {
        throw new Error('nope');
      },
    });
    const model = new ScriptedModel([[functionCall('failing', {}, { callId: 'c1' })], [assistantMessage('recovered')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [failing] }), 'go', { stream: true });
    await collect(result);
    await result.completed;
    expect(result.finalOutput).toBe('recovered');
    // The reference's default text: the error's message stays out of the model's view.
    expect(resultText(model.calls[1], 'c1')).toBe('An error occurred while running the tool. Please try again.');
  });
});
