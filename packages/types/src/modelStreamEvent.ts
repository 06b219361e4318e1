import type { AgentOutputItem } from './protocol.js';
import type { UsageData } from './usage.js';

/** The model started producing a response. */
export interface ResponseStartedEvent {
  type: 'response_started';
  providerData?: Record<string, unknown>;
}

/** A piece of output text. */
export interface OutputTextDeltaEvent {
  type: 'output_text_delta';
  delta: string;
  itemId?: string;
  providerData?: Record<string, unknown>;
}

/** The complete response; the only event the run loop needs to continue. */
export interface ResponseDoneEvent {
  type: 'response_done';
  response: {
    id: string;
    requestId?: string;
    usage: UsageData;
    output: AgentOutputItem[];
    providerData?: Record<string, unknown>;
    /** The provider's usage object as sent, with `modelSettings.preserveRawUsage`. */
    rawUsage?: Record<string, unknown>;
  };
  providerData?: Record<string, unknown>;
}

/**
 * A raw provider event passed through untouched. `event` is `any`, as the reference types it, so
 * programs that read `event.data.event.type` after checking `data.type === 'model'` compile
 * unchanged; the OpenAI guards (`isOpenAIResponsesRawModelStreamEvent`, ...) narrow it to the
 * provider's own event type.
 */
export interface ModelProviderEvent {
  type: 'model';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  event: any;
  providerData?: Record<string, unknown>;
}

/** What `Model.getStreamedResponse` yields. */
export type ModelStreamEvent = ResponseStartedEvent | OutputTextDeltaEvent | ResponseDoneEvent | ModelProviderEvent;
