import { modelResponder, type RecordedModelCall } from '@baton/testing';
import type { AgentInputItem, AgentOutputItem, FunctionCallResultItem } from '@baton/core';

import { aborted, deferred, within, type Deferred } from '@baton/testing';

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

/** The input a model call received, as protocol items. */
export function inputOf(call: RecordedModelCall | undefined): AgentInputItem[] {
  if (!call) throw new Error('no such model call');
  const input = call.request.input;
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
}

/** The text sent back to the model as the output of one tool call. */
export function resultText(call: RecordedModelCall | undefined, callId: string): string {
  const item = inputOf(call).find((i): i is FunctionCallResultItem => i.type === 'function_call_result' && i.callId === callId);
  if (!item) throw new Error(`no function_call_result for ${callId}`);
  const output = item.output;
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return output.type === 'text' ? output.text : '';
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
