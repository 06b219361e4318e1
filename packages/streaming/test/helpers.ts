import type { RecordedModelCall } from '@baton/testing';
import type { AgentInputItem, FunctionCallResultItem, RunStreamEvent } from '@baton/core';

export interface Deferred<T = void> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A promise settled from outside, so tests release tools at known points instead of sleeping. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Rejects with `message` after `ms`, so a broken feature fails fast instead of hanging the test. */
export function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves when the signal fires. */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

export async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/**
 * A short label per event, nested events as `ctx(tool)>label`: item events by name, raw model
 * events as `raw:type`, notifications as `notify(tool):data`, start/end as `start(tool)` / `end(tool)`.
 */
export function label(event: RunStreamEvent): string {
  switch (event.type) {
    case 'run_item_stream_event':
      return event.name;
    case 'raw_model_stream_event':
      return `raw:${event.data.type}`;
    case 'agent_updated_stream_event':
      return `agent:${event.agent.name}`;
    case 'streaming_tool_context_event':
      return `ctx(${event.toolName})>${label(event.internalEvent)}`;
    case 'notify_stream_event':
      return `notify(${event.toolName}):${JSON.stringify(event.data)}`;
    case 'tool_stream_start_event':
      return `start(${event.toolName})`;
    case 'tool_stream_end_event':
      return `end(${event.toolName})${event.error ? `!${event.error.message}` : ''}`;
  }
}

/** Labels without raw model events (their number depends on the model's chunking). */
export function labels(events: readonly RunStreamEvent[]): string[] {
  return events.map(label).filter((l) => !/(^|>)raw:/.test(l));
}

export function inputOf(call: RecordedModelCall | undefined): AgentInputItem[] {
  if (!call) throw new Error('no such model call');
  const input = call.request.input;
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
}

export function toolResultsOf(call: RecordedModelCall | undefined): FunctionCallResultItem[] {
  return inputOf(call).filter((item): item is FunctionCallResultItem => item.type === 'function_call_result');
}

export function outputText(item: FunctionCallResultItem | undefined): string {
  if (!item) throw new Error('no such function_call_result');
  const output = item.output;
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return output.type === 'text' ? output.text : '';
}

export function resultText(call: RecordedModelCall | undefined, callId: string): string {
  return outputText(toolResultsOf(call).find((item) => item.callId === callId));
}
