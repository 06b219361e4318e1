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
