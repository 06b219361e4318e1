import type { ModelProviderEvent, RunRawModelStreamEvent, RunStreamEvent } from '@baton/types';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';

/** `providerData.rawModelEventSource` of the raw events the Responses model streams. */
export const OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE = 'openai-responses';
/** `providerData.rawModelEventSource` of the raw events the Chat Completions model streams. */
export const OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE = 'openai-chat-completions';

export type OpenAIRawModelEventSource = typeof OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE | typeof OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE;

/** A raw model stream event from one of the OpenAI models, narrowed to its source and the event type it carries. */
type OpenAIRawModelStreamEvent<Source extends OpenAIRawModelEventSource, Event> = RunRawModelStreamEvent & {
  readonly data: ModelProviderEvent & { readonly event: Event; readonly providerData: { readonly rawModelEventSource: Source } };
  readonly source: Source;
};

/** A run stream event carrying a raw Responses API event (`event.data.event`). */
export type OpenAIResponsesRawModelStreamEvent = OpenAIRawModelStreamEvent<typeof OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE, ResponseStreamEvent>;
/** A run stream event carrying a raw `chat.completion.chunk` (`event.data.event`). */
export type OpenAIChatCompletionsRawModelStreamEvent = OpenAIRawModelStreamEvent<typeof OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE, ChatCompletionChunk>;

/** A run stream event carrying a raw Responses API event (`event.data.event`). */
export function isOpenAIResponsesRawModelStreamEvent(event: RunStreamEvent): event is OpenAIResponsesRawModelStreamEvent {
  return rawSourceOf(event) === OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE;
}

/** A run stream event carrying a raw `chat.completion.chunk` (`event.data.event`). */
export function isOpenAIChatCompletionsRawModelStreamEvent(event: RunStreamEvent): event is OpenAIChatCompletionsRawModelStreamEvent {
  return rawSourceOf(event) === OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE;
}

/**
 * Where a raw model event came from: the event's `source`, else the marker the model put in
 * `data.providerData.rawModelEventSource` (an event made with `new RunRawModelStreamEvent(data)`
 * carries only the marker).
 */
function rawSourceOf(event: RunStreamEvent): unknown {
  if (event.type !== 'raw_model_stream_event' || event.data.type !== 'model') return undefined;
  return event.source ?? event.data.providerData?.rawModelEventSource;
}
