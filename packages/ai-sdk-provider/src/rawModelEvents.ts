import type { RunStreamEvent } from '@baton/types';

/** `providerData.rawModelEventSource` of the raw events an AI SDK model streams (each one an AI SDK stream part). */
export const AISDK_RAW_MODEL_EVENT_SOURCE = 'ai-sdk';

/** A run stream event carrying a raw AI SDK stream part (`event.data.event`: `text-delta`, `tool-input-start`, `finish`, ...). */
export function isAiSdkRawModelStreamEvent(event: RunStreamEvent): boolean {
  return event.type === 'raw_model_stream_event' && event.data.type === 'model' && event.source === AISDK_RAW_MODEL_EVENT_SOURCE;
}
