import { ModelBehaviorError, type Usage } from '@baton/types';
import type { OpenAIApi } from './openaiProviderError.js';

/**
 * How a response the API did send ended without a usable answer:
 * - `response.failed` / `response.incomplete`: the Responses API ended it with that status
 * - `response.error` / `error`: a Responses stream ended with an error event
 * - `response.completed`: a `response.completed` stream event came without its response
 * - `length`: a chat completion stopped at the token limit before producing any output
 */
export type OpenAIResponseTerminal = 'response.failed' | 'response.incomplete' | 'response.error' | 'error' | 'response.completed' | 'length';

/** The message a truncated, empty chat completion fails with (the reference's words). */
export const CHAT_COMPLETIONS_EMPTY_TRUNCATION_ERROR =
  "Chat Completions response terminated with finish_reason='length' but produced no assistant text, tool call, or refusal.";

/**
 * The model answered, but the answer ended unsuccessfully: a Responses API response that
 * `failed` or is `incomplete`, a stream that ended in an error event, or a chat completion cut at
 * the token limit before it produced anything. A `ModelBehaviorError`, as the reference throws;
 * the message names only the terminal state (the provider's details can carry sensitive text),
 * `terminal`, `api` and `requestId` say which. The request was processed, so replaying it is
 * unsafe: `getRetryAdvice` says so (`unsafeToReplay` / `responseStarted`, not enumerable).
 */
export class OpenAIResponseError extends ModelBehaviorError {
  override readonly _tag = 'ModelBehaviorError' as const;
  readonly terminal: OpenAIResponseTerminal;
  readonly api: OpenAIApi;
  readonly requestId: string | undefined;
  /** What the unsuccessful answer cost, when the API reported usage with it (billed all the same). */
  readonly usage: Usage | undefined;
  declare readonly unsafeToReplay: true;
  declare readonly responseStarted: true;

  constructor(terminal: OpenAIResponseTerminal, api: OpenAIApi, requestId: string | undefined, usage?: Usage) {
    super(messageFor(terminal));
    this.name = 'ModelBehaviorError';
    this.terminal = terminal;
    this.api = api;
    this.requestId = requestId;
    this.usage = usage;
    Object.defineProperties(this, { unsafeToReplay: { value: true }, responseStarted: { value: true } });
  }
}

function messageFor(terminal: OpenAIResponseTerminal): string {
  if (terminal === 'length') return CHAT_COMPLETIONS_EMPTY_TRUNCATION_ERROR;
  if (terminal === 'response.completed') return 'OpenAI Responses terminal event "response.completed" is missing its required response payload.';
  return `OpenAI Responses request ended with unsuccessful terminal state "${terminal}".`;
}
