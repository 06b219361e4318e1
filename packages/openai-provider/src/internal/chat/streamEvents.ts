import type { ModelStreamEvent } from '@baton/types';
import { OpenAIProviderError } from '../../openaiProviderError.js';
import { OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE } from '../../rawModelEvents.js';
import { isRecord, rest, type Json } from '../json.js';
import { chatUsage } from '../usage.js';
import { chatOutputItems, checkTruncated, reasoningOf, type ChatTurn } from './chatOutput.js';

const RAW = { rawModelEventSource: OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE };

/**
 * `chat.completion.chunk`s to model stream events: the first chunk gives `response_started`,
 * every chunk is passed through as a `model` event, content deltas give `output_text_delta`, and
 * text, refusal, reasoning and tool-call deltas (choice 0) are assembled into the final
 * `response_done` with the usage of the last chunk. A stream that ends before a `finish_reason`
 * throws an `OpenAIProviderError` (`stream_interrupted`). Chunks without choices are harmless.
 */
export async function* chatStreamEvents(chunks: AsyncIterable<unknown>, requestId: string | undefined): AsyncGenerator<ModelStreamEvent> {
  const turn: ChatTurn = { text: null, refusal: null, reasoning: null, toolCalls: [], finishReason: null };
  const calls = new Map<number, ChatTurn['toolCalls'][number]>();
  let started = false;
  let id: string | undefined;
  let usage: unknown;
  const meta: Json = {};
  for await (const chunk of chunks) {
    if (!isRecord(chunk)) {
      yield { type: 'model', event: chunk, providerData: RAW };
      continue;
    }
    if (!started) {
      started = true;
      yield { type: 'response_started', providerData: rest(chunk, ['choices']) ?? {} };
    }
    if (id === undefined && typeof chunk.id === 'string') id = chunk.id;
    if (isRecord(chunk.usage)) usage = chunk.usage;
    for (const key of ['model', 'system_fingerprint', 'service_tier']) if (chunk[key] !== undefined && chunk[key] !== null) meta[key] = chunk[key];
    const choice = Array.isArray(chunk.choices) ? chunk.choices.find((c) => isRecord(c) && (c.index ?? 0) === 0) : undefined;
    if (isRecord(choice)) {
      const delta = isRecord(choice.delta) ? choice.delta : {};
      if (typeof delta.content === 'string' && delta.content !== '') {
        turn.text = (turn.text ?? '') + delta.content;
        yield { type: 'output_text_delta', delta: delta.content, providerData: {} };
      }
      if (typeof delta.refusal === 'string') turn.refusal = (turn.refusal ?? '') + delta.refusal;
      const reasoning = reasoningOf(delta);
      if (reasoning !== null) turn.reasoning = (turn.reasoning ?? '') + reasoning;
      if (Array.isArray(delta.tool_calls)) for (const part of delta.tool_calls) if (isRecord(part)) addToolCallDelta(calls, part);
      if (typeof choice.finish_reason === 'string') turn.finishReason = choice.finish_reason;
    }
    yield { type: 'model', event: chunk, providerData: RAW };
  }
  if (!started || turn.finishReason === null) {
    throw new OpenAIProviderError({
      reason: 'stream_interrupted',
      api: 'chat_completions',
      requestId,
      message: started
        ? 'OpenAI Chat Completions stream ended before its final chunk (no finish_reason).'
        : 'OpenAI Chat Completions stream ended without any chunk.',
    });
  }
  turn.toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  const output = chatOutputItems(turn);
  checkTruncated(turn, output, requestId);
  const done: ModelStreamEvent = {
    type: 'response_done',
    response: { id: id ?? `chatcmpl_${globalThis.crypto.randomUUID()}`, usage: chatUsage(usage), output, providerData: { ...meta, finish_reason: turn.finishReason } },
  };
  if (requestId !== undefined) done.response.requestId = requestId;
  yield done;
}

function addToolCallDelta(calls: Map<number, ChatTurn['toolCalls'][number]>, part: Json): void {
  const index = typeof part.index === 'number' ? part.index : 0;
  let call = calls.get(index);
  if (call === undefined) {
    call = { id: undefined, name: '', arguments: '' };
    calls.set(index, call);
  }
  if (typeof part.id === 'string' && part.id !== '') call.id = part.id;
  const fn = isRecord(part.function) ? part.function : {};
  // Most servers send the name whole once; a few repeat it or split it.
  if (typeof fn.name === 'string' && fn.name !== call.name) call.name += fn.name;
  if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
}
