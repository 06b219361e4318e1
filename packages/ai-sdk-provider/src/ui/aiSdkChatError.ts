import { UserError } from '@baton/types';

/**
 * Why the chat handler refused a request (nothing was run and the stored run is untouched):
 * - `bad_request` (400): the body is not what `useChat` sends (`{ id, messages }`), or has no text to answer;
 * - `unknown_decision` (409): an Approve / Reject for a call that is not waiting (unknown, or decided already);
 * - `awaiting_decision` (409): a new message while the chat's run waits for a decision;
 * - `busy` (409): the chat's run is being resumed by another request.
 */
export type AiSdkChatErrorReason = 'bad_request' | 'unknown_decision' | 'awaiting_decision' | 'busy';

/** A chat request the handler refused; the client gets `status` and the message as plain text (what `useChat` shows as its error). */
export class AiSdkChatError extends UserError {
  readonly reason: AiSdkChatErrorReason;
  readonly chatId: string | undefined;

  constructor(reason: AiSdkChatErrorReason, message: string, chatId?: string) {
    super(message);
    this.reason = reason;
    this.chatId = chatId;
  }

  /** The HTTP status the handler answers with. */
  get status(): 400 | 409 {
    return this.reason === 'bad_request' ? 400 : 409;
  }
}
