import { UserError, Usage, type AgentOutputItem, type ModelResponse, type UsageData } from '@baton/types';
import { OpenAIProviderError } from '../../openaiProviderError.js';
import { OpenAIResponseError } from '../../openaiResponseError.js';
import { isRecord, rest, type Json } from '../json.js';
import { snapshotRawUsage } from '@baton/types/internal';
import { preview } from '../responses/responseResult.js';
import { chatUsage } from '../usage.js';

/** The refusal a content-filtered completion with no output becomes (the reference's words). */
export const CONTENT_FILTER_REFUSAL_MESSAGE = "Response withheld by the provider's content filter.";

/** What a finished turn produced, for the truncation and content-filter rules. */
export interface TurnEvidence {
  readonly finishReason: unknown;
  readonly hasText: boolean;
  readonly hasRefusal: boolean;
  readonly hasAudio: boolean;
  readonly hasReasoning: boolean;
  readonly hasFunctionCall: boolean;
}

/** `finish_reason: 'length'` with nothing produced (no text, refusal, audio, reasoning or function call). */
export function isTruncatedEmpty(turn: TurnEvidence): boolean {
  return turn.finishReason === 'length' && !turn.hasText && !turn.hasRefusal && !turn.hasAudio && !turn.hasReasoning && !turn.hasFunctionCall;
}

/** `finish_reason: 'content_filter'` with no output at all: the turn becomes a refusal. */
export function isFilteredEmpty(finishReason: unknown, hasOutput: boolean): boolean {
  return finishReason === 'content_filter' && !hasOutput;
}

/**
 * A non-streamed `chat.completion` to a `ModelResponse`, as the reference builds it: reasoning
 * (`reasoning`, or `reasoning_content` some servers send), then one assistant message (its text,
 * else its refusal) and the function calls, each item with the completion's id; a completion the
 * content filter emptied becomes a refusal; one cut at the token limit before producing anything
 * throws an `OpenAIResponseError` (a `ModelBehaviorError`). `providerData` is the completion as
 * sent; an answer without choices is an `OpenAIProviderError`.
 */
export function chatCompletionToResponse(data: unknown, requestId: string | undefined, preserveRawUsage?: boolean, strict = false): ModelResponse {
  const invalid = (why: string) =>
    new OpenAIProviderError({ reason: 'invalid_response', api: 'chat_completions', requestId, body: data, message: `OpenAI Chat Completions ${why}: ${preview(data)}` });
  if (!isRecord(data)) throw invalid('answered with something that is not a chat completion');
  if (!Array.isArray(data.choices) || data.choices.length === 0) throw invalid('response has no choices');
  const choice = data.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) throw invalid('response choice has no message');
  const finishReason = choice.finish_reason;
  let message = choice.message;
  const hasOutput = Boolean(message.content || message.refusal || (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) || message.audio);
  if (isFilteredEmpty(finishReason, hasOutput)) message = { ...message, content: null, refusal: CONTENT_FILTER_REFUSAL_MESSAGE };
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord) : [];
  const reasoning = reasoningOf(message);
  const customCalls = toolCalls.some((call) => call.type === 'custom');
  if (strict && customCalls) throw new UserError('Custom tool calls are not supported by the Chat Completions converter.');
  if (
    isTruncatedEmpty({
      finishReason,
      hasText: typeof message.content === 'string' && message.content.length > 0,
      hasRefusal: typeof message.refusal === 'string' && message.refusal.length > 0,
      hasAudio: message.audio !== undefined && message.audio !== null,
      hasReasoning: reasoning !== null && reasoning !== '',
      hasFunctionCall: toolCalls.some((call) => call.type === 'function'),
    })
  ) {
    throw new OpenAIResponseError('length', 'chat_completions', requestId, new Usage(isRecord(data.usage) ? chatUsage(data.usage) : { requests: 1 }));
  }
  const id = typeof data.id === 'string' ? data.id : undefined;
  const response: ModelResponse = {
    usage: new Usage(isRecord(data.usage) ? chatUsage(data.usage) : { requests: 1 }),
    output: messageOutput(message, id, reasoning, toolCalls),
    providerData: data,
  };
  if (id !== undefined) response.responseId = id;
  if (requestId !== undefined) response.requestId = requestId;
  if (preserveRawUsage === true) {
    const rawUsage = snapshotRawUsage(data.usage);
    if (rawUsage !== undefined) response.rawUsage = rawUsage;
  }
  return response;
}

function messageOutput(message: Json, id: string | undefined, reasoning: string | null, toolCalls: Json[]): AgentOutputItem[] {
  const output: AgentOutputItem[] = [];
  const withId = <T extends object>(item: T): T => (id === undefined ? item : { id, ...item });
  if (reasoning) output.push({ type: 'reasoning', content: [], rawContent: [{ type: 'reasoning_text', text: reasoning }] });
  // Some servers send `content: ''` beside tool calls; that is no message.
  const hasContent = message.content !== undefined && message.content !== null && !(message.tool_calls && message.content === '');
  if (hasContent) {
    output.push(
      withId({
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: typeof message.content === 'string' ? message.content : '', providerData: rest(message, ['content']) ?? {} }],
      } as const),
    );
  } else if (typeof message.refusal === 'string' && message.refusal !== '') {
    output.push(
      withId({
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'refusal', refusal: message.refusal, providerData: rest(message, ['refusal']) ?? {} }],
      } as const),
    );
  } else if (isRecord(message.audio)) {
    // A spoken answer: its data is the content, its id (to send it back) and transcript providerData.
    const { data, ...audio } = message.audio;
    output.push(withId({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'audio', audio: data as string, providerData: audio }] } as const));
  }
  for (const call of toolCalls) {
    if (call.type !== undefined && call.type !== 'function') continue;
    const fn = isRecord(call.function) ? call.function : {};
    output.push(
      withId({
        type: 'function_call',
        // Kept exactly as sent, even when it is not valid JSON: the run loop answers the model with a parse error.
        arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
        name: typeof fn.name === 'string' ? fn.name : '',
        callId: typeof call.id === 'string' && call.id !== '' ? call.id : `call_${globalThis.crypto.randomUUID().replace(/-/g, '')}`,
        status: 'completed',
        providerData: { ...rest(call, ['id']), ...rest(fn, ['arguments', 'name']) },
      } as const),
    );
  }
  return output;
}

/** Usage for the end of a stream, from the last usage a chunk reported. */
export function streamedUsage(usage: unknown): UsageData {
  return isRecord(usage) ? chatUsage(usage) : { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

export function reasoningOf(value: Json): string | null {
  if (typeof value.reasoning === 'string') return value.reasoning;
  if (typeof value.reasoning_content === 'string') return value.reasoning_content;
  return null;
}
