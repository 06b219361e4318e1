import { Usage, type ModelStreamEvent } from '@baton/types';
import { OpenAIProviderError } from '../../openaiProviderError.js';
import { OpenAIResponseError } from '../../openaiResponseError.js';
import { OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE } from '../../rawModelEvents.js';
import { isRecord, rest } from '../json.js';
import { snapshotRawUsage } from '@baton/types/internal';
import { responsesUsage } from '../usage.js';
import { checkResponseObject, responseParts, unsuccessfulTerminal } from './responseResult.js';

const RAW = { rawModelEventSource: OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE };
const TERMINAL_EVENTS = new Set(['response.completed', 'response.failed', 'response.incomplete', 'response.error', 'error']);

export interface ResponsesStreamOptions {
  readonly requestId: string | undefined;
  /** `modelSettings.preserveRawUsage`: the final event also carries the usage object as sent. */
  readonly preserveRawUsage?: boolean | undefined;
}

/**
 * Responses API stream events to model stream events. Every event is passed through as a `model`
 * event (unknown types included); `response.created` also gives `response_started`, text deltas
 * give `output_text_delta`, and `response.completed` gives `response_done`. An unsuccessful
 * terminal event (`response.failed`, `response.incomplete`, `response.error`, `error`, or a
 * `response.completed` without its response) is passed through, then thrown as an
 * `OpenAIResponseError` (a `ModelBehaviorError`), and the stream is closed. A stream that ends
 * before any terminal event throws an `OpenAIProviderError` (`stream_interrupted`).
 */
export async function* responsesStreamEvents(events: AsyncIterable<unknown>, options: ResponsesStreamOptions): AsyncGenerator<ModelStreamEvent> {
  const { requestId } = options;
  let terminated = false;
  for await (const event of events) {
    if (!isRecord(event)) {
      yield { type: 'model', event, providerData: RAW };
      continue;
    }
    const type = typeof event.type === 'string' ? event.type : undefined;
    if (type === 'response.created') {
      yield { type: 'response_started', providerData: { ...event } };
    } else if (type !== undefined && TERMINAL_EVENTS.has(type)) {
      terminated = true;
      const terminal = unsuccessfulTerminal(event.response, type);
      if (terminal !== undefined) {
        const usage = isRecord(event.response) ? new Usage(responsesUsage(event.response.usage)) : undefined;
        const failure = new OpenAIResponseError(terminal, 'responses', requestId, usage);
        // A reader that stops at this event (the run was cancelled meanwhile) still gets the
        // failure from closing the stream: the response failed, and what it cost is on the error.
        let closedHere = true;
        try {
          yield { type: 'model', event, providerData: RAW };
          closedHere = false;
        } finally {
          if (closedHere) throw failure;
        }
        throw failure;
      }
      const response = checkResponseObject(event.response, requestId);
      const parts = responseParts(response);
      const done: ModelStreamEvent = {
        type: 'response_done',
        response: { id: response.id as string, usage: parts.usage, output: parts.output, providerData: rest(response, ['id', 'output', 'usage']) ?? {} },
        providerData: rest(event, ['response']) ?? {},
      };
      if (requestId !== undefined) done.response.requestId = requestId;
      if (options.preserveRawUsage === true) {
        const rawUsage = snapshotRawUsage(response.usage);
        if (rawUsage !== undefined) done.response.rawUsage = rawUsage;
      }
      yield done;
    } else if (type === 'response.output_text.delta' && typeof event.delta === 'string') {
      const delta: ModelStreamEvent = { type: 'output_text_delta', delta: event.delta, providerData: rest(event, ['delta']) ?? {} };
      if (typeof event.item_id === 'string') delta.itemId = event.item_id;
      yield delta;
    }
    yield { type: 'model', event, providerData: RAW };
  }
  if (!terminated) {
    throw new OpenAIProviderError({
      reason: 'stream_interrupted',
      api: 'responses',
      requestId,
      message: 'OpenAI Responses stream ended before its response.completed event.',
    });
  }
}
