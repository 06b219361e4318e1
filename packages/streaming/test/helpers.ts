import type { RunStreamEvent } from '@baton/core';
import { aborted, deferred, inputOf, outputText, resultText, toolResultsOf, within, type Deferred } from '@baton/testing';

export { aborted, deferred, inputOf, outputText, resultText, toolResultsOf, within, type Deferred };

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The events of a run that fails: every one queued before the failure (the iteration then throws the run's error, which the test reads from `completed`). */
export async function collectUntilFailure<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  try {
    for await (const event of events) out.push(event);
  } catch {
    return out;
  }
  throw new Error(`expected the run's events to end with its error, but they ended normally after ${out.length} events`);
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

