import { Usage, type ModelResponse, type UsageData } from '@baton/types';
import { OpenAIProviderError } from '../../openaiProviderError.js';
import { isRecord, rest, type Json } from '../json.js';
import { responsesUsage } from '../usage.js';
import { fromResponsesOutput } from './outputItems.js';

/** A Responses API `response` object, checked: an object with an id and an output list. */
export function checkResponseObject(value: unknown, requestId: string | undefined): Json {
  if (isRecord(value) && typeof value.id === 'string' && Array.isArray(value.output)) return value;
  throw new OpenAIProviderError({
    reason: 'invalid_response',
    api: 'responses',
    requestId,
    message: `OpenAI Responses answered with something that is not a response object: ${preview(value)}`,
    body: value,
  });
}

/** The error for a response whose status is `failed` or `incomplete`; undefined otherwise. */
export function unsuccessfulResponseError(response: Json, requestId: string | undefined): OpenAIProviderError | undefined {
  if (response.status === 'failed') {
    const error = isRecord(response.error) ? response.error : {};
    const code = typeof error.code === 'string' ? error.code : undefined;
    const detail = typeof error.message === 'string' ? error.message : 'no details';
    return new OpenAIProviderError({
      reason: 'response_failed',
      api: 'responses',
      requestId,
      code,
      body: response,
      message: `OpenAI Responses response ${String(response.id)} failed${code ? ` (${code})` : ''}: ${detail}`,
    });
  }
  if (response.status === 'incomplete') {
    const details = isRecord(response.incomplete_details) ? response.incomplete_details : {};
    const why = typeof details.reason === 'string' ? details.reason : undefined;
    return new OpenAIProviderError({
      reason: 'response_incomplete',
      api: 'responses',
      requestId,
      code: why,
      body: response,
      message: `OpenAI Responses response ${String(response.id)} is incomplete${why ? ` (${why})` : ''}.`,
    });
  }
  return undefined;
}

/** The parts of a completed response the run loop needs. */
export function responseParts(response: Json): { usage: UsageData; output: ModelResponse['output']; providerData: Json } {
  return {
    usage: responsesUsage(response.usage),
    output: fromResponsesOutput(response.output),
    providerData: rest(response, ['output', 'usage', 'output_text']) ?? {},
  };
}

/** A `ModelResponse` for a completed response object. */
export function toModelResponse(response: Json, requestId: string | undefined): ModelResponse {
  const parts = responseParts(response);
  const out: ModelResponse = { usage: new Usage(parts.usage), output: parts.output, responseId: response.id as string, providerData: parts.providerData };
  if (requestId !== undefined) out.requestId = requestId;
  return out;
}

export function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
