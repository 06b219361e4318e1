import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, run, type StreamedRunResult } from '../src/index.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Streams `count` runs to the end one after another, all within one job (the model answers from memory). */
async function streamRuns(count: number, options: { signal?: AbortSignal }, registry: FinalizationRegistry<number>): Promise<void> {
  for (let i = 0; i < count; i++) {
    const model = new ScriptedModel([[assistantMessage(`answer ${i}`)]]);
    const result: StreamedRunResult<unknown, Agent> = await run(new Agent({ name: 'A', model }), 'go', { stream: true, ...options });
    for await (const _event of result);
    await result.completed;
    registry.register(result, i);
  }
}

describe('a finished streamed run is released', () => {
  it('without a signal: its result can be collected before the job that made it ends', async () => {
    let finalized = 0;
    const registry = new FinalizationRegistry<number>(() => void (finalized += 1));
    await streamRuns(20, {}, registry);
    // Still in the job that ran them: nothing may hold the results (a WeakRef to one would, until the job ends).
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finalized).toBeGreaterThanOrEqual(18);
  });

  it('with a signal the caller keeps: the signal does not keep its result alive', async () => {
    const kept = new AbortController();
    let finalized = 0;
    const registry = new FinalizationRegistry<number>(() => void (finalized += 1));
    await streamRuns(20, { signal: kept.signal }, registry);
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finalized).toBeGreaterThanOrEqual(18);
    expect(kept.signal.aborted).toBe(false);
  });
});
