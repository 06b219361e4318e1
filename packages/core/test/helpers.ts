import type { RecordedModelCall } from '@baton/testing';
import type { AgentInputItem, FunctionCallResultItem, RunStreamEvent } from '../src/index.js';

import { aborted, deferred, within, type Deferred } from '@baton/testing';

export { aborted, deferred, within, type Deferred };

/** The input a model call received, as protocol items. */
export function inputOf(call: RecordedModelCall | undefined): AgentInputItem[] {
  if (!call) throw new Error('no such model call');
  const input = call.request.input;
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
}

/** The function_call_result items in a model call's input. */
export function toolResultsOf(call: RecordedModelCall | undefined): FunctionCallResultItem[] {
  return inputOf(call).filter((item): item is FunctionCallResultItem => item.type === 'function_call_result');
}

/** The text of a function_call_result's output. */
export function outputText(item: FunctionCallResultItem | undefined): string {
  if (!item) throw new Error('no such function_call_result');
  const output = item.output;
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return output.type === 'text' ? output.text : '';
}

/** The output text sent back to the model for one call id. */
export function resultText(call: RecordedModelCall | undefined, callId: string): string {
  return outputText(toolResultsOf(call).find((item) => item.callId === callId));
}

/** A short label for an event: the item event name, or the raw model event type. */
export function eventLabel(event: RunStreamEvent): string {
  if (event.type === 'run_item_stream_event') return event.name;
  if (event.type === 'raw_model_stream_event') return `raw:${event.data.type}`;
  return event.type;
}

/** Collects unhandled rejections while a test runs; call `stop()` to detach and read them. */
export function watchUnhandledRejections(): { readonly reasons: unknown[]; stop(): Promise<unknown[]> } {
  const reasons: unknown[] = [];
  const listener = (reason: unknown) => reasons.push(reason);
  process.on('unhandledRejection', listener);
  return {
    reasons,
    async stop() {
      // Let pending microtasks and a macrotask turn pass so a late rejection would be reported.
      await new Promise((resolve) => setTimeout(resolve, 10));
      process.off('unhandledRejection', listener);
      return reasons;
    },
  };
}
