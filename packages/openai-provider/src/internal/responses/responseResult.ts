import { Usage, type ModelResponse, type UsageData } from '@baton/types';
import { OpenAIProviderError } from '../../openaiProviderError.js';
import { OpenAIResponseError, type OpenAIResponseTerminal } from '../../openaiResponseError.js';
import { isRecord, type Json } from '../json.js';
import { snapshotRawUsage } from '@baton/types/internal';
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

/**
 * The terminal state of a response that ended without a usable answer: the stream event type
 * when it says so (`response.failed`, `response.incomplete`, `response.error`, `error`, or a
 * `response.completed` without its response), else the response's own `failed` / `incomplete`
 * status; undefined for a completed response.
 */
export function unsuccessfulTerminal(response: unknown, eventType?: string): OpenAIResponseTerminal | undefined {
  if (eventType === 'response.failed' || eventType === 'response.incomplete' || eventType === 'response.error' || eventType === 'error') return eventType;
  if (eventType === 'response.completed' && !isRecord(response)) return 'response.completed';
  const status = isRecord(response) ? response.status : undefined;
  return status === 'failed' || status === 'incomplete' ? `response.${status}` : undefined;
}

/** The error for a response whose status is `failed` or `incomplete`; undefined otherwise. */
export function unsuccessfulResponseError(response: Json, requestId: string | undefined): OpenAIResponseError | undefined {
  const terminal = unsuccessfulTerminal(response);
  return terminal === undefined ? undefined : new OpenAIResponseError(terminal, 'responses', requestId, new Usage(responsesUsage(response.usage)));
}

/** The parts of a completed response the run loop needs. */
export function responseParts(response: Json): { usage: UsageData; output: ModelResponse['output'] } {
  return { usage: responsesUsage(response.usage), output: fromResponsesOutput(response.output) };
}

/**
 * A `ModelResponse` for a completed response object. `providerData` is the response object
 * itself, as the API sent it (as in the reference); with `preserveRawUsage`, `rawUsage` is a
 * detached copy of its usage.
 */
export function toModelResponse(response: Json, requestId: string | undefined, preserveRawUsage?: boolean): ModelResponse {
  const parts = responseParts(response);
  const out: ModelResponse = { usage: new Usage(parts.usage), output: parts.output, responseId: response.id as string, providerData: response };
  if (requestId !== undefined) out.requestId = requestId;
  if (preserveRawUsage === true) {
    const rawUsage = snapshotRawUsage(response.usage);
    if (rawUsage !== undefined) out.rawUsage = rawUsage;
  }
  return out;
}

export function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
