import type { RunStreamEvent } from '@baton/types';
import type { RawModelStreamEventJSON, RunStreamEventJSON, WrappableStreamEventJSON } from '../eventJson.js';
import { toEventJSON } from '../eventToJson.js';

/**
 * Which raw model events a transport forwards:
 * - `'none'`: none (the default for browser-facing transports);
 * - `'text'`: only output text deltas, reduced to `{ type, delta, itemId? }` (for a typing effect);
 * - `'all'`: every event as the provider sent it — `response.created` / `response.completed` carry
 *   the agent's instructions and tool definitions, so only for a trusted client.
 */
export type RawModelEventsPolicy = 'none' | 'text' | 'all';

export interface ExposurePolicy {
  readonly rawModelEvents: RawModelEventsPolicy;
  /** Whether error messages (a failed run, a failed streaming tool) go out as they are. */
  readonly errorDetails: boolean;
}

/** What a client is told instead of a failed tool's own message, unless the server opts in to details. */
export const GENERIC_TOOL_ERROR = 'The tool failed.';

const POLICIES: readonly RawModelEventsPolicy[] = ['none', 'text', 'all'];

/** Reads the transport options into a policy, rejecting a value that is not one (naming the option). */
export function exposurePolicy(caller: string, options: { rawModelEvents?: RawModelEventsPolicy; errorDetails?: boolean }): ExposurePolicy {
  const rawModelEvents = options.rawModelEvents ?? 'none';
  if (!POLICIES.includes(rawModelEvents)) {
    throw new TypeError(`${caller}: rawModelEvents must be 'none', 'text' or 'all', got ${JSON.stringify(rawModelEvents)}.`);
  }
  return { rawModelEvents, errorDetails: options.errorDetails === true };
}

/**
 * The event as a client may see it under `policy`, or `undefined` when it must not be sent at all:
 * raw model events (also inside a nested run's `streaming_tool_context_event`) are dropped or
 * reduced, and a failed tool's error message is replaced unless the server opted in to details.
 */
export function exposedEventJSON(event: RunStreamEvent, policy: ExposurePolicy): RunStreamEventJSON | undefined {
  switch (event.type) {
    case 'raw_model_stream_event':
      return rawEventJSON(event, policy.rawModelEvents);
    case 'streaming_tool_context_event': {
      const inner = exposedEventJSON(event.internalEvent, policy);
      if (inner === undefined) return undefined;
      return { event_type: event.type, type: event.type, toolName: event.toolName, toolCallId: event.toolCallId, internalEvent: inner as WrappableStreamEventJSON };
    }
    case 'tool_stream_end_event': {
      const json = toEventJSON(event);
      if (json.event_type === 'tool_stream_end_event' && json.error && !policy.errorDetails) json.error = { name: json.error.name, message: GENERIC_TOOL_ERROR };
      return json;
    }
    default:
      return toEventJSON(event);
  }
}

function rawEventJSON(event: Extract<RunStreamEvent, { type: 'raw_model_stream_event' }>, policy: RawModelEventsPolicy): RawModelStreamEventJSON | undefined {
  if (policy === 'all') return toEventJSON(event) as RawModelStreamEventJSON;
  if (policy === 'none' || event.data.type !== 'output_text_delta') return undefined;
  const { delta, itemId } = event.data;
  return {
    event_type: event.type,
    type: event.type,
    data: { type: 'output_text_delta', delta: String(delta), ...(typeof itemId === 'string' ? { itemId } : {}) },
  };
}
