import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Usage, type ModelStreamEvent, type RunStreamEvent } from '@baton/types';
import { forwardStream } from '../src/engine/internal/loop/modelStreamForwarding.js';
import { EventChannel } from '../src/engine/internal/eventChannel.js';
import { LazyAbort } from '../src/engine/internal/lazyAbort.js';
import type { LoopEnv } from '../src/engine/internal/loop/loopEnv.js';
import type { RunRecord } from '../src/state/internal/runRecord.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const DONE: ModelStreamEvent = {
  type: 'response_done',
  response: { id: 'resp_1', usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }, output: [] },
};

/** A model stream of two events, registered so the test sees when it is collected. */
function registeredStream(registry: FinalizationRegistry<string>): AsyncIterable<ModelStreamEvent> {
  async function* events(): AsyncGenerator<ModelStreamEvent> {
    yield { type: 'response_started' };
    yield DONE;
  }
  const stream = events();
  registry.register(stream, 'stream');
  return stream;
}

/**
 * Forwards one stream to a reader through the channel and reads its two events; nothing the stream
 * could be reached from is kept but `abort` (whose followers name the pump).
 */
async function forwardToReader(abort: LazyAbort, registry: FinalizationRegistry<string>, readerFirst: boolean): Promise<string[]> {
  const channel = new EventChannel<RunStreamEvent>(4);
  const record = { context: { usage: new Usage() } } as unknown as RunRecord;
  const env = { observed: true, sink: channel } as unknown as LoopEnv;
  const firstRead = readerFirst ? channel.take() : undefined;
  const finished = forwardStream(registeredStream(registry), { abort, record, env, progress: { producedEvents: false }, events: [] as ModelStreamEvent[] });
  // Without a reader, the pump reads ahead into the buffer after this turn of the event loop.
  if (!readerFirst) await new Promise((resolve) => setImmediate(resolve));
  const read: string[] = [];
  for (const next of [firstRead ?? channel.take(), channel.take()]) {
    const result = await next;
    if (result.done !== true) read.push((result.value as { data: ModelStreamEvent }).data.type);
  }
  expect((await finished)?.responseId).toBe('resp_1');
  return read;
}

describe('a finished model stream pump lets go of the call it forwarded', () => {
  it.each([
    ['a reader waiting from the start (events read directly)', true],
    ['no reader until the stream was read ahead', false],
  ])('%s: the stream can be collected while the run’s abort still names the pump', async (_name, readerFirst) => {
    const collected: string[] = [];
    const registry = new FinalizationRegistry<string>((name) => collected.push(name));
    // The abort outlives the call, as a caller's signal or an aborted run's bookkeeping may.
    const abort = new LazyAbort();
    expect(await forwardToReader(abort, registry, readerFirst)).toEqual(['response_started', 'response_done']);
    for (let i = 0; i < 5 && collected.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      collectGarbage();
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(collected).toEqual(['stream']);
    expect(abort.aborted).toBe(false);
  });

  it('a stream that failed: the stream can be collected while the run’s abort still names the pump', async () => {
    const collected: string[] = [];
    const registry = new FinalizationRegistry<string>((name) => collected.push(name));
    const abort = new LazyAbort();
    await (async () => {
      // Made outside the stream: an error's stack keeps the frames it was made in (the stream's, here) until it is read.
      const reset = new Error('connection reset');
      async function* failing(): AsyncGenerator<ModelStreamEvent> {
        yield { type: 'response_started' };
        throw reset;
      }
      const stream = failing();
      registry.register(stream, 'stream');
      const channel = new EventChannel<RunStreamEvent>(4);
      const env = { observed: true, sink: channel } as unknown as LoopEnv;
      const reading = channel.take();
      const finished = forwardStream(stream, { abort, record: {} as RunRecord, env, progress: { producedEvents: false }, events: [] as ModelStreamEvent[] });
      expect((await reading).done).toBe(false);
      void channel.take();
      await expect(finished).rejects.toThrow('connection reset');
    })();
    for (let i = 0; i < 5 && collected.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      collectGarbage();
    }
    expect(collected).toEqual(['stream']);
  });
});
