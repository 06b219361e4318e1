import { Usage, type AgentOutputItem, type AssistantContent, type ModelResponse } from '@baton/types';
import { OpenAIProviderError } from '../../openaiProviderError.js';
import { isRecord, rest, type Json } from '../json.js';
import { preview } from '../responses/responseResult.js';
import { chatUsage } from '../usage.js';

/** One assistant turn of a chat completion, assembled from a message or from stream deltas. */
export interface ChatTurn {
  text: string | null;
  refusal: string | null;
  /** `reasoning_content` (or `reasoning`) as some compatible servers send it. */
  reasoning: string | null;
  toolCalls: Array<{ id: string | undefined; name: string; arguments: string }>;
  finishReason: string | null;
}

/** Protocol items for a turn: reasoning, then the assistant message, then function calls. */
export function chatOutputItems(turn: ChatTurn): AgentOutputItem[] {
  const output: AgentOutputItem[] = [];
  if (turn.reasoning) {
    output.push({ type: 'reasoning', content: [], rawContent: [{ type: 'reasoning_text', text: turn.reasoning }] });
  }
  const content: AssistantContent[] = [];
  // Some servers send `content: ''` beside tool calls; that is no message.
  if (turn.text !== null && (turn.text !== '' || turn.toolCalls.length === 0)) content.push({ type: 'output_text', text: turn.text });
  if (turn.refusal) content.push({ type: 'refusal', refusal: turn.refusal });
  if (content.length > 0) output.push({ type: 'message', role: 'assistant', status: 'completed', content });
  for (const call of turn.toolCalls) {
    output.push({
      type: 'function_call',
      callId: call.id || `call_${globalThis.crypto.randomUUID().replace(/-/g, '')}`,
      name: call.name,
      // Kept exactly as sent, even when it is not valid JSON: the run loop answers the model with a parse error.
      arguments: call.arguments,
      status: 'completed',
    });
  }
  return output;
}

/** `finish_reason: 'length'` with nothing produced is an incomplete response. */
export function checkTruncated(turn: ChatTurn, output: AgentOutputItem[], requestId: string | undefined): void {
  if (turn.finishReason === 'length' && output.every((item) => item.type === 'reasoning')) {
    throw new OpenAIProviderError({
      reason: 'response_incomplete',
      api: 'chat_completions',
      requestId,
      code: 'length',
      message: "OpenAI Chat Completions response stopped at the token limit (finish_reason 'length') before producing any output.",
    });
  }
}

/** A non-streamed `chat.completion` to a `ModelResponse`; an answer without choices is an error. */
export function chatCompletionToResponse(data: unknown, requestId: string | undefined): ModelResponse {
  const invalid = (why: string) =>
    new OpenAIProviderError({ reason: 'invalid_response', api: 'chat_completions', requestId, body: data, message: `OpenAI Chat Completions ${why}: ${preview(data)}` });
  if (!isRecord(data)) throw invalid('answered with something that is not a chat completion');
  if (!Array.isArray(data.choices) || data.choices.length === 0) throw invalid('response has no choices');
  const choice = data.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) throw invalid('response choice has no message');
  const turn = turnOfMessage(choice.message, choice.finish_reason);
  const output = chatOutputItems(turn);
  checkTruncated(turn, output, requestId);
  const response: ModelResponse = {
    usage: new Usage(chatUsage(data.usage)),
    output,
    providerData: { ...rest(data, ['choices', 'usage']), finish_reason: turn.finishReason },
  };
  if (typeof data.id === 'string') response.responseId = data.id;
  if (requestId !== undefined) response.requestId = requestId;
  return response;
}

function turnOfMessage(message: Json, finishReason: unknown): ChatTurn {
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord) : [];
  return {
    text: typeof message.content === 'string' ? message.content : null,
    refusal: typeof message.refusal === 'string' ? message.refusal : null,
    reasoning: reasoningOf(message),
    toolCalls: calls
      .filter((call) => call.type === undefined || call.type === 'function')
      .map((call) => {
        const fn = isRecord(call.function) ? call.function : {};
        return {
          id: typeof call.id === 'string' ? call.id : undefined,
          name: typeof fn.name === 'string' ? fn.name : '',
          arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
        };
      }),
    finishReason: typeof finishReason === 'string' ? finishReason : null,
  };
}

export function reasoningOf(value: Json): string | null {
  if (typeof value.reasoning_content === 'string') return value.reasoning_content;
  if (typeof value.reasoning === 'string') return value.reasoning;
  return null;
}
