import type { AgentOutputItem } from '@baton/core';
import { aborted, deferred, inputOf, modelResponder, resultText, within, type Deferred } from '@baton/testing';

export { inputOf, resultText };
export { aborted, deferred, within, type Deferred };

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/**
 * A model step that answers `output` after `ms` unless its request is aborted first. `started`
 * resolves when the call begins; `outcome` tells whether the model saw an abort or answered.
 */
export function slowModelStep(ms: number, output: AgentOutputItem[]) {
  const started = deferred();
  const outcome = deferred<'aborted' | 'answered'>();
  const step = modelResponder(async (call) => {
    started.resolve();
    const seen = await new Promise<'aborted' | 'answered'>((resolve) => {
      const timer = setTimeout(() => resolve('answered'), ms);
      call.request.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve('aborted')), { once: true });
    });
    outcome.resolve(seen);
    return output;
  });
  return { step, started, outcome };
}

/**
 * Reads a streamed run to its end. A failed run ends the iteration with its error (as the
 * reference's does): that error is returned, with the events delivered before it.
 */
export async function drain<T>(events: AsyncIterable<T>, onEvent: (event: T, seen: T[]) => void = () => {}): Promise<{ events: T[]; error: unknown }> {
  const seen: T[] = [];
  try {
    for await (const event of events) {
      seen.push(event);
      onEvent(event, seen);
    }
  } catch (error) {
    return { events: seen, error };
  }
  return { events: seen, error: undefined };
}
