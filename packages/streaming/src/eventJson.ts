import type {
  AssistantMessageItem,
  FunctionCallItem,
  FunctionCallResultItem,
  ModelStreamEvent,
  ReasoningItem,
  RunItemStreamEventName,
} from '@baton/types';

/**
 * The wire form of run stream events (what `toSSE` sends and `readRunEvents` yields): plain JSON,
 * with the event's fields as on the server, `event_type` (and `type`) naming the event, agents
 * referenced by name. Types only, so importing them costs a browser bundle nothing.
 */
export interface AgentJSON {
  name: string;
}

interface RunItemJSONBase<TType extends string, TRaw> {
  type: TType;
  rawItem: TRaw;
  agent: AgentJSON;
}

export type MessageOutputItemJSON = RunItemJSONBase<'message_output_item', AssistantMessageItem>;
export type ToolCallItemJSON = RunItemJSONBase<'tool_call_item', FunctionCallItem>;
export type ToolCallOutputItemJSON = RunItemJSONBase<'tool_call_output_item', FunctionCallResultItem> & { output: unknown };
export type ReasoningItemJSON = RunItemJSONBase<'reasoning_item', ReasoningItem>;
export type HandoffCallItemJSON = RunItemJSONBase<'handoff_call_item', FunctionCallItem>;
export type HandoffOutputItemJSON = RunItemJSONBase<'handoff_output_item', FunctionCallResultItem> & {
  sourceAgent: AgentJSON;
  targetAgent: AgentJSON;
};
export type ToolApprovalItemJSON = RunItemJSONBase<'tool_approval_item', FunctionCallItem> & { toolName: string };

export type RunItemJSON =
  | MessageOutputItemJSON
  | ToolCallItemJSON
  | ToolCallOutputItemJSON
  | ReasoningItemJSON
  | HandoffCallItemJSON
  | HandoffOutputItemJSON
  | ToolApprovalItemJSON;

interface EventJSONBase<TType extends string> {
  /** The event's type (as in the seed's client code); `type` carries the same value. */
  event_type: TType;
  type: TType;
}

export interface RawModelStreamEventJSON extends EventJSONBase<'raw_model_stream_event'> {
  data: ModelStreamEvent;
  source?: string;
}

export interface RunItemStreamEventJSON extends EventJSONBase<'run_item_stream_event'> {
  name: RunItemStreamEventName;
  item: RunItemJSON;
}

export interface AgentUpdatedStreamEventJSON extends EventJSONBase<'agent_updated_stream_event'> {
  agent: AgentJSON;
}

/** An event of a streaming tool's nested run, for display only: it is not part of the conversation. */
export interface StreamingToolContextEventJSON extends EventJSONBase<'streaming_tool_context_event'> {
  toolName: string;
  toolCallId: string;
  internalEvent: WrappableStreamEventJSON;
}

export interface NotifyStreamEventJSON extends EventJSONBase<'notify_stream_event'> {
  data: unknown;
  toolName: string;
  toolCallId: string;
  tag?: string;
}

export interface ToolStreamStartEventJSON extends EventJSONBase<'tool_stream_start_event'> {
  toolName: string;
  toolCallId: string;
  /** The call's arguments (JSON text, as the model sent them). */
  input: string;
}

export interface ToolStreamEndEventJSON extends EventJSONBase<'tool_stream_end_event'> {
  toolName: string;
  toolCallId: string;
  output?: unknown;
  error?: { name: string; message: string };
  /** Set when the call paused for approvals inside it (a nested agent): it starts again on resume. */
  interrupted?: true;
}

export type WrappableStreamEventJSON =
  | RawModelStreamEventJSON
  | RunItemStreamEventJSON
  | AgentUpdatedStreamEventJSON
  | StreamingToolContextEventJSON;

export type RunStreamEventJSON =
  | WrappableStreamEventJSON
  | NotifyStreamEventJSON
  | ToolStreamStartEventJSON
  | ToolStreamEndEventJSON;

/** The last frame of a run that ended without error. */
export interface RunEndEventJSON extends EventJSONBase<'run_end'> {
  /** `interrupted`: the run paused for approvals (see `interruptions`). */
  status: 'completed' | 'interrupted';
  finalOutput?: unknown;
  interruptions: ToolApprovalItemJSON[];
  lastAgent: AgentJSON;
}

/** The last frame of a run that failed; `readRunEvents` turns it into a `RunEventStreamError` ('run_failed'). */
export interface RunErrorEventJSON extends EventJSONBase<'run_error'> {
  error: { name: string; message: string };
}

/** What `readRunEvents` yields: the run's events, then `run_end`. */
export type RunEventJSON = RunStreamEventJSON | RunEndEventJSON;

/** Every frame `toSSE` sends. */
export type RunFrameJSON = RunEventJSON | RunErrorEventJSON;
