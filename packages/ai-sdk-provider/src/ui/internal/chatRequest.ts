import { AiSdkChatError } from '../aiSdkChatError.js';

type Part = Record<string, unknown>;

/** A UI message as `useChat` sends it: what the handler reads of it. */
export interface ChatMessage {
  readonly id: string | undefined;
  readonly role: string;
  readonly parts: readonly Part[];
}

/** The body `useChat`'s default transport posts: the chat's id and its messages (the last one is new). */
export interface ChatRequest {
  readonly chatId: string;
  readonly messages: readonly ChatMessage[];
  readonly last: ChatMessage;
}

const MAX_CHAT_ID_LENGTH = 200;

/** Reads and checks the body (`{ id, messages, trigger }`); anything else is an `AiSdkChatError` (`bad_request`). */
export function readChatRequest(body: unknown): ChatRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('The request body must be a JSON object { id, messages } as useChat sends it.');
  const { id, messages, trigger } = body as { id?: unknown; messages?: unknown; trigger?: unknown };
  if (typeof id !== 'string' || id === '' || id.length > MAX_CHAT_ID_LENGTH) throw bad(`The chat id ("id") must be a non-empty string of at most ${MAX_CHAT_ID_LENGTH} characters, got ${describe(id)}.`);
  if (trigger !== undefined && trigger !== 'submit-message') {
    throw bad(`This chat route answers new messages and approval decisions (trigger "submit-message"); got trigger ${describe(trigger)}.`, id);
  }
  if (!Array.isArray(messages) || messages.length === 0) throw bad(`"messages" must be a non-empty array of UI messages, got ${describe(messages)}.`, id);
  const read = messages.map((message, index) => readMessage(message, index, id));
  return { chatId: id, messages: read, last: read[read.length - 1]! };
}

/** The text of a user message: its text parts, joined. */
export function textOf(message: ChatMessage): string {
  return message.parts
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('');
}

function readMessage(message: unknown, index: number, chatId: string): ChatMessage {
  if (typeof message !== 'object' || message === null) throw bad(`messages[${index}] must be an object, got ${describe(message)}.`, chatId);
  const { id, role, parts } = message as { id?: unknown; role?: unknown; parts?: unknown };
  if (role !== 'user' && role !== 'assistant' && role !== 'system') throw bad(`messages[${index}].role must be "user", "assistant" or "system", got ${describe(role)}.`, chatId);
  if (!Array.isArray(parts)) throw bad(`messages[${index}].parts must be an array, got ${describe(parts)}.`, chatId);
  return { id: typeof id === 'string' ? id : undefined, role, parts: parts.filter((part): part is Part => typeof part === 'object' && part !== null) };
}

function bad(message: string, chatId?: string): AiSdkChatError {
  return new AiSdkChatError('bad_request', message, chatId);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
