import { describe, expect, it } from 'vitest';
import { ScriptedModel, aborted, assistantMessage, modelResponder, within } from '@baton/testing';
import { Agent, run } from '../src/index.js';

/**
 * A streamed run stopped while its model call is in flight ends quietly when the call ends as a
 * stopped call does (an abort error, or an answer); when the call then fails with an error of its
 * own, \`completed\` rejects with it, and with the caller's own reason when the call failed with
 * that reason (also wrapped), as the reference's streamed runs do. The request's signal carries the
 * caller's reason. The reader's events end either way, as the reference's do.
 */

type Ending = (signal: AbortSignal) => Promise<never> | Promise<ReturnType<typeof assistantMessage>[]>;

/** How \`completed\` settled: 'quiet', or the error it rejected with. */
function completedOutcome(result: { completed: Promise<unknown> }): Promise<unknown> {
  const settled = result.completed.then(
    () => 'quiet',
    (error: unknown) => error,
  );
  return within(settled, 1_000, 'completed did not settle');
}

const abortNamed = () => Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
const own = new Error('the stream broke');

const cases: Array<[string, 'signal' | 'cancel', unknown, Ending, 'quiet' | 'reason' | 'own']> = [
  ['an AbortError', 'signal', undefined, () => Promise.reject(abortNamed()), 'quiet'],
  ['a provider error caused by an AbortError', 'signal', undefined, () => Promise.reject(new Error('provider: aborted', { cause: abortNamed() })), 'quiet'],
  ['the signal’s default reason', 'signal', undefined, (signal) => Promise.reject(signal.reason), 'quiet'],
  ['an answer (the call ignored the abort)', 'signal', undefined, async () => [assistantMessage('late')], 'quiet'],
  ['an error of its own', 'signal', undefined, () => Promise.reject(own), 'own'],
  ['the caller’s custom reason', 'signal', new Error('the caller stopped it'), (signal) => Promise.reject(signal.reason), 'reason'],
  ['an error caused by the caller’s custom reason', 'signal', new Error('the caller stopped it'), (signal) => Promise.reject(new Error('provider: aborted', { cause: signal.reason })), 'reason'],
  ['an error of its own, after a custom reason', 'signal', new Error('the caller stopped it'), () => Promise.reject(own), 'own'],
  ['an AbortError, after cancel()', 'cancel', undefined, () => Promise.reject(abortNamed()), 'quiet'],
  ['an error of its own, after cancel()', 'cancel', undefined, () => Promise.reject(own), 'own'],
];

describe('a streamed run stopped while its model call is in flight', () => {
  it.each(cases)('the call ends with %s (%s)', async (_label, stopBy, reason, ending, expected) => {
    const controller = new AbortController();
    let seenReason: unknown;
    const model = new ScriptedModel([
      modelResponder(async (call) => {
        const signal = call.request.signal!;
        await aborted(signal);
        seenReason = signal.reason;
        return ending(signal) as never;
      }),
    ]);
    const result = await run(new Agent({ name: 'A', model }), 'hi', { stream: true, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (stopBy === 'cancel') result.cancel();
    else controller.abort(reason);
    const read = (async () => {
      for await (const _event of result);
    })().then(
      () => 'ended',
      (error: unknown) => error,
    );
    const outcome = await completedOutcome(result);
    expect(result.cancelled).toBe(true);
    if (expected === 'quiet') expect(outcome).toBe('quiet');
    else expect(outcome).toBe(expected === 'reason' ? reason : own);
    // The reader's events end as a cancelled run's do (as on the reference): the failure is completed's.
    expect(await read).toBe('ended');
    if (stopBy === 'signal' && reason !== undefined) expect(seenReason).toBe(reason);
  });

  // A call the run times (modelSettings.timeoutMs) ends with the caller's abort, however the provider ends it (as the reference's timed calls do).
  it.each([
    ['an error of its own, default reason', undefined, () => Promise.reject(own), 'quiet'],
    ['an error of its own, custom reason', new Error('the caller stopped it'), () => Promise.reject(own), 'reason'],
    ['an answer, custom reason', new Error('the caller stopped it'), async () => [assistantMessage('late')], 'reason'],
    ['an answer, a string reason', 'because', async () => [assistantMessage('late')], 'quiet'],
  ] as const)('a timed call that ends with %s', async (_label, reason, ending, expected) => {
    const controller = new AbortController();
    const model = new ScriptedModel([
      modelResponder(async (call) => {
        await aborted(call.request.signal);
        return ending() as never;
      }),
    ]);
    const agent = new Agent({ name: 'A', model, modelSettings: { timeoutMs: 10_000 } });
    const result = await run(agent, 'hi', { stream: true, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    const outcome = await completedOutcome(result);
    expect(result.cancelled).toBe(true);
    expect(outcome).toBe(expected === 'quiet' ? 'quiet' : reason);
  });
});
