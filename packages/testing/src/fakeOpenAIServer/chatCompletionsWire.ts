import type { FakeResponseTurn, FakeUsage } from './turns.js';
import { splitText, type IdSource } from './wireUtils.js';

type Json = Record<string, unknown>;

/** A Chat Completions `usage` object. */
export function chatUsage(usage: FakeUsage = {}): Json {
  const input = usage.inputTokens ?? 10;
  const output = usage.outputTokens ?? 5;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

interface Assembled {
  text: string | null;
  refusal: string | null;
  reasoning: string | null;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string;
}

function assemble(turn: FakeResponseTurn, ids: IdSource): Assembled {
  const texts: string[] = [];
  const refusals: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: Assembled['toolCalls'] = [];
  for (const piece of turn.output) {
    if (piece.type === 'message') texts.push(piece.text);
    else if (piece.type === 'refusal') refusals.push(piece.refusal);
    else if (piece.type === 'reasoning') reasoning.push(piece.summary);
    else if (piece.type === 'item') throw new Error('Chat Completions has no output items: script this turn for the Responses API.');
    else toolCalls.push({ id: piece.callId ?? ids.next('call'), name: piece.name, arguments: piece.arguments });
  }
  const finishReason = turn.status === 'incomplete' ? 'length' : toolCalls.length > 0 ? 'tool_calls' : 'stop';
  return {
    text: texts.length > 0 ? texts.join('') : null,
    refusal: refusals.length > 0 ? refusals.join('') : null,
    reasoning: reasoning.length > 0 ? reasoning.join('') : null,
    toolCalls,
    finishReason,
  };
}

function header(body: Json, id: string, object: string): Json {
  return { id, object, created: 1_700_000_000, model: body.model ?? 'fake-model', system_fingerprint: 'fp_fake' };
}

/** A `chat.completion` object for a turn. */
export function chatCompletion(turn: FakeResponseTurn, body: Json, ids: IdSource): Json {
  const a = assemble(turn, ids);
  const message: Json = { role: 'assistant', content: a.text, refusal: a.refusal, annotations: [] };
  if (a.reasoning !== null) message.reasoning_content = a.reasoning;
  if (a.toolCalls.length > 0) {
    message.tool_calls = a.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  }
  return {
    ...header(body, ids.next('chatcmpl'), 'chat.completion'),
    choices: [{ index: 0, message, logprobs: null, finish_reason: a.finishReason }],
    usage: chatUsage(turn.usage),
  };
}

/** The `chat.completion.chunk` sequence for a turn; the final `[DONE]` frame is added by the writer. */
export function chatChunks(turn: FakeResponseTurn, body: Json, ids: IdSource): Json[] {
  const a = assemble(turn, ids);
  const includeUsage = (body.stream_options as Json | undefined)?.include_usage === true;
  const head = header(body, ids.next('chatcmpl'), 'chat.completion.chunk');
  const chunks = turn.stream?.deltaChunks ?? 2;
  const chunk = (delta: Json, finishReason: string | null = null): Json => ({
    ...head,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const out: Json[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (a.reasoning !== null) for (const piece of splitText(a.reasoning, chunks)) out.push(chunk({ reasoning_content: piece }));
  if (a.text !== null) for (const piece of splitText(a.text, chunks)) out.push(chunk({ content: piece }));
  if (a.refusal !== null) for (const piece of splitText(a.refusal, chunks)) out.push(chunk({ refusal: piece }));
  a.toolCalls.forEach((call, index) => {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of splitText(call.arguments, chunks)) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  out.push(chunk({}, a.finishReason));
  if (includeUsage) out.push({ ...head, choices: [], usage: chatUsage(turn.usage) });
  return out;
}
