import type { RunStreamEvent } from '@baton/types';

/** `providerData.rawModelEventSource` of the raw events the Responses model streams. */
export const OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE = 'openai-responses';
/** `providerData.rawModelEventSource` of the raw events the Chat Completions model streams. */
export const OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE = 'openai-chat-completions';

export type OpenAIRawModelEventSource = typeof OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE | typeof OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE;

/** A run stream event carrying a raw Responses API event (`event.data.event`). */
export function isOpenAIResponsesRawModelStreamEvent(event: RunStreamEvent): boolean {
  return event.type === 'raw_model_stream_event' && event.data.type === 'model' && event.source === OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE;
}

/** A run stream event carrying a raw `chat.completion.chunk` (`event.data.event`). */
export function isOpenAIChatCompletionsRawModelStreamEvent(event: RunStreamEvent): boolean {
  return event.type === 'raw_model_stream_event' && event.data.type === 'model' && event.source === OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE;
}
