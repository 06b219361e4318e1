import type { ModelStreamEvent } from '@baton/types';
import { OpenAIProviderError } from '../../openaiProviderError.js';
import { OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE } from '../../rawModelEvents.js';
import { isRecord, rest } from '../json.js';
import { checkResponseObject, responseParts, unsuccessfulResponseError } from './responseResult.js';

const RAW = { rawModelEventSource: OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE };

/**
 * Responses API stream events to model stream events. Every event is passed through as a `model`
 * event (unknown types included); `response.created` also gives `response_started`, text deltas
 * give `output_text_delta`, and `response.completed` gives `response_done`. A `failed` or
 * `incomplete` terminal event, an `error` event, or a stream that ends before its terminal event
 * throws an `OpenAIProviderError` (after passing the raw event through).
 */
export async function* responsesStreamEvents(events: AsyncIterable<unknown>, requestId: string | undefined): AsyncGenerator<ModelStreamEvent> {
  let completed = false;
  for await (const event of events) {
    const type = isRecord(event) ? event.type : undefined;
    if (!isRecord(event)) {
      yield { type: 'model', event, providerData: RAW };
      continue;
    }
    if (type === 'response.created') {
      yield { type: 'response_started', providerData: { ...event } };
    } else if (type === 'response.output_text.delta' && typeof event.delta === 'string') {
      const delta: ModelStreamEvent = { type: 'output_text_delta', delta: event.delta, providerData: rest(event, ['delta']) ?? {} };
      if (typeof event.item_id === 'string') delta.itemId = event.item_id;
      yield delta;
    } else if (type === 'response.completed' || type === 'response.failed' || type === 'response.incomplete') {
      const response = checkResponseObject(event.response, requestId);
      const failure =
        unsuccessfulResponseError(response, requestId) ??
        (type === 'response.completed' ? undefined : unsuccessfulResponseError({ ...response, status: type.slice('response.'.length) }, requestId));
      if (failure !== undefined) {
        yield { type: 'model', event, providerData: RAW };
        throw failure;
      }
      const parts = responseParts(response);
      const done: ModelStreamEvent = {
        type: 'response_done',
        response: { id: response.id as string, usage: parts.usage, output: parts.output, providerData: parts.providerData },
        providerData: rest(event, ['response']) ?? {},
      };
      if (requestId !== undefined) done.response.requestId = requestId;
      yield done;
      completed = true;
    } else if (type === 'error') {
      yield { type: 'model', event, providerData: RAW };
      throw streamErrorEvent(event, requestId);
    }
    yield { type: 'model', event, providerData: RAW };
  }
  if (!completed) {
    throw new OpenAIProviderError({
      reason: 'stream_interrupted',
      api: 'responses',
      requestId,
      message: 'OpenAI Responses stream ended before its response.completed event.',
    });
  }
}

function streamErrorEvent(event: Record<string, unknown>, requestId: string | undefined): OpenAIProviderError {
  const code = typeof event.code === 'string' ? event.code : undefined;
  const message = typeof event.message === 'string' ? event.message : 'no details';
  return new OpenAIProviderError({
    reason: 'stream_error',
    api: 'responses',
    requestId,
    code,
    param: typeof event.param === 'string' ? event.param : undefined,
    body: event,
    message: `OpenAI Responses stream error${code ? ` (${code})` : ''}: ${message}`,
  });
}
