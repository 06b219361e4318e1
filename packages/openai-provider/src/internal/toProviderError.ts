import type { APIError } from 'openai';
import { loadedOpenAI } from './openaiModule.js';
import { OpenAIProviderError, type OpenAIApi } from '../openaiProviderError.js';
import { headersOf, statusOf } from './errorFields.js';
import { isRetryableStatusCode } from './retryAdvice.js';

/** Where the failure happened: before an answer arrived, or while reading a stream. */
export type FailurePhase = 'request' | 'stream';

export interface FailureContext {
  readonly api: OpenAIApi;
  readonly phase: FailurePhase;
  readonly signal?: AbortSignal | undefined;
  readonly requestId?: string | undefined;
}

/** Maps anything the `openai` client throws to an `OpenAIProviderError`. */
export function toProviderError(error: unknown, context: FailureContext): OpenAIProviderError {
  if (error instanceof OpenAIProviderError) return error;
  const { api } = context;
  // Loaded before any request is made; without it nothing here came from the client.
  const openai = loadedOpenAI();

  if (context.signal?.aborted || (openai !== undefined && error instanceof openai.APIUserAbortError)) return abortedError(api, context.signal?.reason ?? error);
  if (openai !== undefined && error instanceof openai.APIConnectionTimeoutError) {
    return new OpenAIProviderError({ reason: 'timeout', api, message: `OpenAI ${label(api)} request timed out.`, retryable: true, cause: error });
  }
  if (openai !== undefined && error instanceof openai.APIConnectionError) {
    const reason = context.phase === 'stream' ? 'stream_interrupted' : 'connection';
    return new OpenAIProviderError({ reason, api, message: `OpenAI ${label(api)} connection failed: ${error.message}`, retryable: reason === 'connection', cause: error });
  }
  if (openai !== undefined && error instanceof openai.APIError) return fromApiError(error, context);
  const status = statusOf(error);
  if (status !== undefined && context.phase === 'request') return fromStatusError(error, status, context);
  if (error instanceof SyntaxError) {
    return context.phase === 'stream'
      ? new OpenAIProviderError({
          reason: 'malformed_stream',
          api,
          message: `OpenAI ${label(api)} stream sent a frame that is not JSON: ${error.message}`,
          requestId: context.requestId,
          cause: error,
        })
      : new OpenAIProviderError({ reason: 'invalid_response', api, message: `OpenAI ${label(api)} answered with a body that is not JSON: ${error.message}`, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (context.phase === 'stream') {
    return new OpenAIProviderError({ reason: 'stream_interrupted', api, message: `OpenAI ${label(api)} stream broke: ${message}`, requestId: context.requestId, cause: error });
  }
  // The client wraps network failures in APIConnectionError, so anything else is an answer it could not use.
  return new OpenAIProviderError({ reason: 'invalid_response', api, message: `OpenAI ${label(api)} answer could not be read: ${message}`, cause: error });
}

/** An error from a wrapped or custom client that carries an HTTP status (and maybe headers). */
function fromStatusError(error: unknown, status: number, context: FailureContext): OpenAIProviderError {
  const headers = headersOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return new OpenAIProviderError({
    reason: 'http',
    api: context.api,
    status,
    requestId: headers?.get('x-request-id') ?? context.requestId ?? undefined,
    message: `OpenAI ${label(context.api)} request failed with status ${status}: ${message}`,
    retryable: isRetryableStatus(status, headers),
    retryAfterMs: retryAfterMs(headers),
    shouldRetryHeader: shouldRetryHeaderOf(headers),
    cause: error,
  });
}

function shouldRetryHeaderOf(headers: Headers | undefined): string | undefined {
  const value = headers?.get('x-should-retry')?.toLowerCase().trim();
  return value === 'true' || value === 'false' ? value : undefined;
}

function fromApiError(error: APIError, context: FailureContext): OpenAIProviderError {
  const { api } = context;
  const headers = error.headers as Headers | undefined;
  const requestId = error.requestID ?? headers?.get('x-request-id') ?? context.requestId ?? undefined;
  const body = error.error as Record<string, unknown> | undefined;
  const common = {
    api,
    requestId,
    code: stringOrUndefined(error.code),
    type: stringOrUndefined(error.type),
    param: stringOrUndefined(error.param),
    body,
    cause: error,
  };
  if (error.status === undefined) {
    // An error object sent inside an SSE stream.
    return new OpenAIProviderError({ ...common, reason: 'stream_error', message: `OpenAI ${label(api)} stream error: ${error.message}` });
  }
  return new OpenAIProviderError({
    ...common,
    reason: 'http',
    status: error.status,
    message: `OpenAI ${label(api)} request failed with status ${error.message}`,
    retryable: isRetryableStatus(error.status, headers),
    retryAfterMs: retryAfterMs(headers),
    shouldRetryHeader: shouldRetryHeaderOf(headers),
  });
}

/** 408, 409, 429 and 5xx are retried, unless the server says otherwise with `x-should-retry`. */
export function isRetryableStatus(status: number, headers: Headers | undefined): boolean {
  const hint = shouldRetryHeaderOf(headers);
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return isRetryableStatusCode(status);
}

/** `retry-after-ms`, else `retry-after` as seconds or an HTTP date; undefined when absent or invalid. */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const millis = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(millis) && millis >= 0) return millis;
  const value = headers?.get('retry-after');
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function abortedError(api: OpenAIApi, cause?: unknown): OpenAIProviderError {
  return new OpenAIProviderError({ reason: 'aborted', api, message: `OpenAI ${label(api)} request was aborted.`, cause });
}

export function label(api: OpenAIApi): string {
  return api === 'responses' ? 'Responses' : 'Chat Completions';
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}
