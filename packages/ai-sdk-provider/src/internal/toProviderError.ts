import {
  APICallError,
  EmptyResponseBodyError,
  InvalidArgumentError,
  InvalidPromptError,
  InvalidResponseDataError,
  JSONParseError,
  LoadAPIKeyError,
  LoadSettingError,
  NoContentGeneratedError,
  TypeValidationError,
  UnsupportedFunctionalityError,
} from '@ai-sdk/provider';
import { AiSdkProviderError, type AiSdkProviderErrorReason } from '../aiSdkProviderError.js';
import { requestIdOf, retryAfterMsOf } from './headers.js';
import { isRecord, parseJson } from './json.js';

/** Where the failure happened: before the answer (or stream) arrived, or while reading a stream. */
export type FailurePhase = 'request' | 'stream';

export interface FailureContext {
  readonly model: { readonly provider: string; readonly modelId: string };
  readonly phase: FailurePhase;
  /** The model request's signal: when it fired, the failure is reported as the abort. */
  readonly signal?: AbortSignal | undefined;
  /** Set when the attempt's own timer (`modelSettings.timeoutMs`) fired. */
  readonly timedOutAfterMs?: number | undefined;
  readonly requestId?: string | undefined;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Maps anything a language model (or its stream) throws to an `AiSdkProviderError`. The AI SDK's
 * error classes are recognised with their `isInstance` checks, which read a marker rather than the
 * prototype, so errors from another copy of `@ai-sdk/provider` (a v3 provider's own) count too.
 */
export function toProviderError(error: unknown, context: FailureContext): AiSdkProviderError {
  if (error instanceof AiSdkProviderError) return error;
  const make = (reason: AiSdkProviderErrorReason, message: string, extra: Partial<ConstructorParameters<typeof AiSdkProviderError>[0]> = {}) =>
    new AiSdkProviderError({
      reason,
      message: ownMessage(error) ?? `AI SDK model ${label(context)} ${message}`,
      provider: context.model.provider,
      modelId: context.model.modelId,
      requestId: context.requestId,
      cause: error,
      ...extra,
    });

  if (context.signal?.aborted) return abortedError(context, context.signal.reason ?? error);
  if (context.timedOutAfterMs !== undefined) return make('timeout', `timed out after ${context.timedOutAfterMs}ms.`, { retryable: true });
  if (isAbortError(error)) return abortedError(context, error);
  const message = messageOf(error);

  if (APICallError.isInstance(error)) {
    const headers = error.responseHeaders;
    const common = {
      requestId: requestIdOf(headers) ?? context.requestId,
      retryAfterMs: retryAfterMsOf(headers),
      body: bodyOf(error),
      code: codeOf(error.data ?? bodyOf(error)),
    };
    // A successful answer whose body then broke (statusCode 2xx) is an interrupted stream, not an HTTP error.
    if (error.statusCode !== undefined && error.statusCode >= 400) {
      return make('http', `request failed with status ${error.statusCode}: ${message}`, { ...common, status: error.statusCode, retryable: error.isRetryable });
    }
    if (context.phase === 'stream' || error.statusCode !== undefined) return make('stream_interrupted', `stream broke: ${message}`, { ...common, retryable: false });
    return make('connection', `connection failed: ${message}`, { ...common, retryable: error.isRetryable });
  }
  if (InvalidPromptError.isInstance(error) || InvalidArgumentError.isInstance(error) || UnsupportedFunctionalityError.isInstance(error)) {
    return make('invalid_request', `rejected the request: ${message}`);
  }
  if (LoadAPIKeyError.isInstance(error) || LoadSettingError.isInstance(error)) return make('invalid_request', `is not configured: ${message}`);
  if (
    InvalidResponseDataError.isInstance(error) ||
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error) ||
    NoContentGeneratedError.isInstance(error)
  ) {
    return context.phase === 'stream' ? make('stream_error', `stream sent something it could not read: ${message}`) : make('invalid_response', `answer could not be read: ${message}`);
  }
  if (isNetworkError(error)) {
    return context.phase === 'stream' ? make('stream_interrupted', `stream broke: ${message}`) : make('connection', `connection failed: ${message}`, { retryable: true });
  }
  if (context.phase === 'stream') return make('stream_interrupted', `stream failed: ${message}`);
  return make('unknown', `failed: ${message}`);
}

/** The error for an `error` part in the model's stream; an HTTP error inside it keeps its status and verdict. */
export function streamErrorPart(part: unknown, context: FailureContext): AiSdkProviderError {
  if (context.signal?.aborted) return abortedError(context, context.signal.reason);
  if (APICallError.isInstance(part)) {
    const mapped = toProviderError(part, { ...context, phase: 'request' });
    return new AiSdkProviderError({
      reason: 'stream_error',
      message: ownMessage(part) ?? `AI SDK model ${label(context)} stream sent an error: ${messageOf(part)}`,
      provider: mapped.provider,
      modelId: mapped.modelId,
      status: mapped.status,
      requestId: mapped.requestId,
      code: mapped.code,
      body: mapped.body,
      retryable: mapped.retryable,
      retryAfterMs: mapped.retryAfterMs,
      cause: part,
    });
  }
  return new AiSdkProviderError({
    reason: 'stream_error',
    message: ownMessage(part) ?? `AI SDK model ${label(context)} stream sent an error: ${messageOf(part)}`,
    provider: context.model.provider,
    modelId: context.model.modelId,
    requestId: context.requestId,
    code: codeOf(part),
    body: part instanceof Error ? undefined : part,
    cause: part,
  });
}

export function abortedError(context: Pick<FailureContext, 'model' | 'requestId'>, cause?: unknown): AiSdkProviderError {
  return new AiSdkProviderError({
    reason: 'aborted',
    message: `AI SDK model ${label(context)} request was aborted.`,
    provider: context.model.provider,
    modelId: context.model.modelId,
    requestId: context.requestId,
    cause,
  });
}

export function label(context: Pick<FailureContext, 'model'>): string {
  return `${context.model.provider}:${context.model.modelId}`;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'ResponseAborted');
}

function isNetworkError(error: unknown): boolean {
  for (let e = error, depth = 0; isRecord(e) && depth < 5; e = e.cause, depth += 1) {
    if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
    if (e instanceof TypeError && /fetch failed|failed to fetch|network/i.test(e.message)) return true;
  }
  return false;
}

/**
 * The thrown error's own message, which the wrapping error keeps word for word (code written for the
 * reference's adapter, which rethrows the AI SDK's error, reads `error.message`); `undefined` for
 * something without one, which gets a message of ours.
 */
function ownMessage(error: unknown): string | undefined {
  return error instanceof Error && error.message !== '' ? error.message : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (isRecord(error)) {
    if (typeof error.message === 'string') return error.message;
    if (isRecord(error.error) && typeof error.error.message === 'string') return error.error.message;
  }
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** The error body: parsed JSON when it is JSON, else the text. */
function bodyOf(error: APICallError): unknown {
  if (error.responseBody === undefined) return error.data;
  return parseJson(error.responseBody)?.value ?? error.responseBody;
}

/** `error.code` or `error.type` of an OpenAI- or Anthropic-style error body (or of the error object itself). */
function codeOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const inner = isRecord(value.error) ? value.error : value;
  for (const key of ['code', 'type']) {
    const entry = inner[key];
    if (typeof entry === 'string' && entry !== 'error') return entry;
    if (typeof entry === 'number') return String(entry);
  }
  return undefined;
}
