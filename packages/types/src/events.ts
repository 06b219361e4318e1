import type { ModelStreamEvent } from './modelStreamEvent.js';
import type { RunItem } from './runItem.js';
import type { RegisteredAgent } from './registry.js';

/** A model stream event, forwarded as it arrives. */
export class RunRawModelStreamEvent {
  readonly type = 'raw_model_stream_event' as const;
  /** Which provider's raw events \`data\` carries (\`'openai-responses'\`, ...): given, else read from the event's \`providerData.rawModelEventSource\`. */
  public readonly source?: string;
  constructor(
    public readonly data: ModelStreamEvent,
    source?: string,
  ) {
    const fromEvent = (data as { providerData?: { rawModelEventSource?: unknown } } | undefined)?.providerData?.rawModelEventSource;
    const resolved = source ?? (typeof fromEvent === 'string' ? fromEvent : undefined);
    if (resolved !== undefined) this.source = resolved;
  }
}

export type RunItemStreamEventName =
  | 'message_output_created'
  | 'handoff_requested'
  | 'handoff_occurred'
  | 'tool_search_called'
  | 'tool_search_output_created'
  | 'tool_called'
  | 'tool_output'
  | 'reasoning_item_created'
  | 'compaction_item_created'
  | 'tool_approval_requested';

/** A run item was created. */
export class RunItemStreamEvent {
  readonly type = 'run_item_stream_event' as const;
  constructor(
    public readonly name: RunItemStreamEventName,
    public readonly item: RunItem,
  ) {}
}

/** The current agent changed (after a handoff). */
export class RunAgentUpdatedStreamEvent {
  readonly type = 'agent_updated_stream_event' as const;
  constructor(public readonly agent: RegisteredAgent) {}
}

/** An event from inside a streaming tool's nested run: shown to the caller, never added to history. */
export class StreamingToolContextEvent {
  readonly type = 'streaming_tool_context_event' as const;
  constructor(
    public readonly toolName: string,
    public readonly toolCallId: string,
    public readonly internalEvent: WrappableStreamEvent,
  ) {}
}

/** A progress notification from a streaming tool. */
export class NotifyStreamEvent {
  readonly type = 'notify_stream_event' as const;
  constructor(
    public readonly data: unknown,
    public readonly toolName: string,
    public readonly toolCallId: string,
    public readonly tag?: string,
  ) {}
}

/** A streaming tool call started. */
export class ToolStreamStartEvent {
  readonly type = 'tool_stream_start_event' as const;
  constructor(
    public readonly toolName: string,
    public readonly toolCallId: string,
    public readonly input: string,
  ) {}
}

/**
 * A streaming tool call ended: with its output (after output guardrails) and, when the tool failed
 * and its error function answered the model, the error too; or `interrupted` when it paused for
 * an approval inside (it starts again on resume).
 */
export class ToolStreamEndEvent {
  readonly type = 'tool_stream_end_event' as const;
  constructor(
    public readonly toolName: string,
    public readonly toolCallId: string,
    public readonly output?: unknown,
    public readonly error?: { name: string; message: string },
    public readonly interrupted?: boolean,
  ) {}
}

/** Events a streaming tool's nested run produces that get wrapped in `StreamingToolContextEvent`. */
export type WrappableStreamEvent =
  | RunRawModelStreamEvent
  | RunItemStreamEvent
  | RunAgentUpdatedStreamEvent
  | StreamingToolContextEvent;

export type RunStreamEvent =
  | RunRawModelStreamEvent
  | RunItemStreamEvent
  | RunAgentUpdatedStreamEvent
  | StreamingToolContextEvent
  | NotifyStreamEvent
  | ToolStreamStartEvent
  | ToolStreamEndEvent;

export type RunStreamEventType = RunStreamEvent['type'];
