import { type RunStreamEvent, type RunToolApprovalItem } from '@baton/types';
import type {
  RunEndEventJSON,
  RunErrorEventJSON,
  RunStreamEventJSON,
  ToolApprovalItemJSON,
  ToolStreamEndEventJSON,
  WrappableStreamEventJSON,
} from './eventJson.js';

/** What a finished run tells `runEndJSON` (a `StreamedRunResult` or a `RunResult`). */
export interface FinishedRunLike {
  readonly finalOutput: unknown;
  readonly interruptions: readonly RunToolApprovalItem[];
  readonly lastAgent: { readonly name: string };
}

/**
 * A run stream event as plain JSON (see `RunStreamEventJSON`), everything in it: raw model events
 * as the provider sent them (with the agent's instructions and tools, for Responses models) and
 * errors with their messages. For a browser, the transports (`toSSE`) leave those out by default.
 * `event_type` added, run items and
 * agents through their `toJSON` (agents by name), a nested run's pause as `interruptions`. Values
 * JSON cannot carry (bigint, cycles) are made safe when the frame is encoded.
 */
export function toEventJSON(event: RunStreamEvent): RunStreamEventJSON {
  switch (event.type) {
    case 'raw_model_stream_event':
      return { event_type: event.type, type: event.type, data: event.data, ...(event.source !== undefined ? { source: event.source } : {}) };
    case 'run_item_stream_event':
      return { event_type: event.type, type: event.type, name: event.name, item: event.item.toJSON() as never };
    case 'agent_updated_stream_event':
      return { event_type: event.type, type: event.type, agent: { name: event.agent.name } };
    case 'streaming_tool_context_event':
      return {
        event_type: event.type,
        type: event.type,
        toolName: event.toolName,
        toolCallId: event.toolCallId,
        internalEvent: toEventJSON(event.internalEvent) as WrappableStreamEventJSON,
      };
    case 'notify_stream_event':
      return {
        event_type: event.type,
        type: event.type,
        data: event.data,
        toolName: event.toolName,
        toolCallId: event.toolCallId,
        ...(event.tag !== undefined ? { tag: event.tag } : {}),
      };
    case 'tool_stream_start_event':
      return { event_type: event.type, type: event.type, toolName: event.toolName, toolCallId: event.toolCallId, input: event.input };
    case 'tool_stream_end_event': {
      const json: ToolStreamEndEventJSON = { event_type: event.type, type: event.type, toolName: event.toolName, toolCallId: event.toolCallId };
      if (event.output !== undefined) json.output = event.output;
      if (event.error !== undefined) json.error = { name: event.error.name, message: event.error.message };
      // A nested run paused for approvals: the call starts again when the run resumes.
      if (event.interrupted) json.interrupted = true;
      return json;
    }
    default: {
      // An event type this version does not know: pass its fields on rather than lose it.
      const unknownEvent = event as { type: string };
      return { ...unknownEvent, event_type: unknownEvent.type } as unknown as RunStreamEventJSON;
    }
  }
}

/** The `run_end` frame for a run that finished (or paused for approvals). */
export function runEndJSON(result: FinishedRunLike): RunEndEventJSON {
  const json: RunEndEventJSON = {
    event_type: 'run_end',
    type: 'run_end',
    status: result.interruptions.length > 0 ? 'interrupted' : 'completed',
    interruptions: result.interruptions.map(approvalJSON),
    lastAgent: { name: result.lastAgent.name },
  };
  if (result.finalOutput !== undefined) json.finalOutput = result.finalOutput;
  return json;
}

/** What a client is told instead of a failed run's own error message, unless the server opts in. */
export const GENERIC_RUN_ERROR = 'The run failed.';

export interface RunErrorJSONOptions {
  /**
   * Send the error's own message. Default `false`: the message is `'The run failed.'`, because an
   * error's text can carry a tool's arguments, a provider's answer or a secret; log the error on
   * the server instead. Turn it on only for a trusted client.
   */
  errorDetails?: boolean;
}

/** The `run_error` frame for a run that failed: the error's name and (only if asked for) its message. */
export function runErrorJSON(error: unknown, options: RunErrorJSONOptions = {}): RunErrorEventJSON {
  const name = error instanceof Error ? error.name : 'Error';
  const message = options.errorDetails === true ? (error instanceof Error ? error.message : String(error)) : GENERIC_RUN_ERROR;
  return { event_type: 'run_error', type: 'run_error', error: { name, message } };
}

function approvalJSON(item: RunToolApprovalItem): ToolApprovalItemJSON {
  return item.toJSON() as ToolApprovalItemJSON;
}
