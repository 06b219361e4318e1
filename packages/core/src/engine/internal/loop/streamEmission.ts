import {
  NotifyStreamEvent,
  StreamingToolContextEvent,
  UserError,
  type RunStreamEvent,
  type ToolEmission,
} from '@baton/types';

const WRAPPED = new Set(['raw_model_stream_event', 'run_item_stream_event', 'agent_updated_stream_event', 'streaming_tool_context_event']);
const PASSED_THROUGH = new Set(['notify_stream_event', 'tool_stream_start_event', 'tool_stream_end_event']);

/**
 * Turns what a tool emits into a parent-stream event: notifications become `notify_stream_event`,
 * events of a nested run are wrapped once more in `streaming_tool_context_event` (so they are shown,
 * never mistaken for the parent's own items), and notify / start / end events pass unchanged.
 */
export function toParentEvent(emission: ToolEmission, toolName: string, toolCallId: string): RunStreamEvent {
  const type = typeof emission === 'object' && emission !== null ? (emission as { type?: unknown }).type : undefined;
  if (type === 'notify') {
    const notify = emission as Extract<ToolEmission, { type: 'notify' }>;
    return new NotifyStreamEvent(notify.data, toolName, toolCallId, notify.tag);
  }
  if (typeof type === 'string' && WRAPPED.has(type)) {
    return new StreamingToolContextEvent(toolName, toolCallId, emission as StreamingToolContextEvent['internalEvent']);
  }
  if (typeof type === 'string' && PASSED_THROUGH.has(type)) return emission as RunStreamEvent;
  throw new UserError(
    `Tool "${toolName}" emitted something that is not a stream event (expected { type: 'notify', data } or a run stream event, got ${
      type === undefined ? typeof emission : `type ${JSON.stringify(type)}`
    }).`,
  );
}
