import { Option, Tracer } from 'effect';
import type { RunState, RunStreamEvent } from '../src/index.js';

import { aborted, deferred, inputOf, outputText, resultText, toolResultsOf, within, type Deferred } from '@baton/testing';

export { aborted, deferred, inputOf, outputText, resultText, toolResultsOf, within, type Deferred };

/** A short label for an event: the item event name, or the raw model event type. */
export function eventLabel(event: RunStreamEvent): string {
  if (event.type === 'run_item_stream_event') return event.name;
  if (event.type === 'raw_model_stream_event') return `raw:${event.data.type}`;
  return event.type;
}

/** The function-call outputs a state's history holds, as call id, status and output. */
export function functionCallOutputs(state: RunState<any, any>) {
  return state.history
    .filter((item): item is Extract<typeof item, { type: 'function_call_result' }> => item.type === 'function_call_result')
    .map((item) => ({ callId: item.callId, status: item.status, output: item.output }));
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

/** A tracer that records each ended span: name, attributes, exit and parent span name. */
export function recordingTracer() {
  const spans: Array<{ name: string; attributes: Record<string, unknown>; exit: string; parent: string | undefined }> = [];
  const tracer = Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options);
      const end = span.end.bind(span);
      span.end = (time, exit) => {
        end(time, exit);
        const parent = Option.isSome(span.parent) && 'name' in span.parent.value ? span.parent.value.name : undefined;
        spans.push({ name: span.name, attributes: Object.fromEntries(span.attributes), exit: exit._tag, parent });
      };
      return span;
    },
  });
  return { tracer, spans };
}
