import type OpenAI from 'openai';
import { UserError, getDefaultModel } from '@baton/types';
import type { OpenAIApi } from './openaiProviderError.js';

/** The API a provider uses when not told otherwise. */
export const DEFAULT_OPENAI_API: OpenAIApi = 'responses';
/** The model used when an agent names none (the reference 0.20.0's default; override with `OPENAI_DEFAULT_MODEL`). */
export const DEFAULT_OPENAI_MODEL = 'gpt-5.6-luna';

let defaultApi: OpenAIApi = DEFAULT_OPENAI_API;
let defaultClient: OpenAI | undefined;
let defaultKey: string | undefined;

/** Which API providers without `useResponses` use: `'responses'` (the default) or `'chat_completions'`. */
export function setOpenAIAPI(value: OpenAIApi): void {
  if (value !== 'responses' && value !== 'chat_completions') {
    throw new UserError(`setOpenAIAPI: expected 'responses' or 'chat_completions', got ${JSON.stringify(value)}.`);
  }
  defaultApi = value;
}

export function getOpenAIAPI(): OpenAIApi {
  return defaultApi;
}

/** A ready `openai` client for providers created without client options; `undefined` forgets it. */
export function setDefaultOpenAIClient(client: OpenAI | undefined): void {
  if (client !== undefined && (typeof client !== 'object' || client === null)) {
    throw new UserError('setDefaultOpenAIClient: expected an OpenAI client instance.');
  }
  defaultClient = client;
}

export function getDefaultOpenAIClient(): OpenAI | undefined {
  return defaultClient;
}

/** The API key used when a provider is given none (instead of `OPENAI_API_KEY`); `undefined` forgets it. */
export function setDefaultOpenAIKey(key: string | undefined): void {
  if (key !== undefined && (typeof key !== 'string' || key === '')) throw new UserError('setDefaultOpenAIKey: expected a non-empty string.');
  defaultKey = key;
}

/** How Responses models send requests. */
export type OpenAIResponsesTransport = 'http' | 'websocket';

let defaultTransport: OpenAIResponsesTransport = 'http';

/**
 * The transport Responses models use by default: `'http'` (each turn a `POST /v1/responses`) or
 * `'websocket'` (one socket kept across turns, see `OpenAIResponsesWSModel`).
 */
export function setOpenAIResponsesTransport(value: OpenAIResponsesTransport): void {
  if (value !== 'http' && value !== 'websocket') {
    throw new UserError(`setOpenAIResponsesTransport: expected 'http' or 'websocket', got ${JSON.stringify(value)}.`);
  }
  defaultTransport = value;
}

/** The transport set with `setOpenAIResponsesTransport` (default `'http'`). */
export function getOpenAIResponsesTransport(): OpenAIResponsesTransport {
  return defaultTransport;
}

/** `OPENAI_WEBSOCKET_BASE_URL`, the WebSocket base URL for providers that make their own client. */
export function getDefaultOpenAIWebSocketBaseURL(): string | undefined {
  return env('OPENAI_WEBSOCKET_BASE_URL');
}

/** The key set with `setDefaultOpenAIKey`, else `OPENAI_API_KEY`. */
export function getDefaultOpenAIKey(): string | undefined {
  return defaultKey ?? env('OPENAI_API_KEY');
}

/** `OPENAI_DEFAULT_MODEL`, else `DEFAULT_OPENAI_MODEL`. */
export function getDefaultOpenAIModel(): string {
  return getDefaultModel();
}

/** A non-empty environment variable, read when asked (never at import). */
export function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Forgets `setOpenAIAPI`, `setDefaultOpenAIClient` and `setDefaultOpenAIKey` (for tests; not exported from the package). */
export function resetOpenAIDefaults(): void {
  defaultApi = DEFAULT_OPENAI_API;
  defaultClient = undefined;
  defaultKey = undefined;
  defaultTransport = 'http';
}
