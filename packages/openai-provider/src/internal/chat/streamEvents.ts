import { Usage, UserError, type AgentOutputItem, type AssistantContent, type AudioContent, type ModelStreamEvent } from '@baton/types';
import { OpenAIResponseError } from '../../openaiResponseError.js';
import { OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE } from '../../rawModelEvents.js';
import { isRecord, type Json } from '../json.js';
import { snapshotRawUsage } from '@baton/types/internal';
import { CONTENT_FILTER_REFUSAL_MESSAGE, isFilteredEmpty, isTruncatedEmpty, reasoningOf, streamedUsage } from './chatOutput.js';
import { StreamedAudio } from './streamedAudio.js';

const RAW = { rawModelEventSource: OPENAI_CHAT_COMPLETIONS_RAW_MODEL_EVENT_SOURCE };

export interface ChatStreamOptions {
  readonly requestId: string | undefined;
  /** `modelSettings.preserveRawUsage`: the final event also carries the usage object as sent. */
  readonly preserveRawUsage?: boolean | undefined;
  /** `strictFeatureValidation`: a custom tool call is a `UserError` instead of being skipped. */
  readonly strict?: boolean | undefined;
}

interface StreamedCall {
  callId: string;
  name: string;
  arguments: string;
}

/**
 * `chat.completion.chunk`s to model stream events, as the reference streams them: the first chunk
 * gives `response_started`, every chunk is passed through as a `model` event (before what it
 * produces), content deltas give `output_text_delta` (with the completion id as `itemId`), and
 * text, refusal, reasoning and tool-call deltas of choice 0 are assembled into the final
 * `response_done` (items with the completion id), with the last usage a chunk reported. A stream
 * that ends without a `finish_reason` still ends with what it produced. A content-filtered turn
 * with no output becomes a refusal; a turn cut at the token limit before producing anything
 * throws an `OpenAIResponseError` (a `ModelBehaviorError`).
 */
export async function* chatStreamEvents(chunks: AsyncIterable<unknown>, options: ChatStreamOptions): AsyncGenerator<ModelStreamEvent> {
  const calls = new Map<number, StreamedCall>();
  // Custom tool calls are skipped (Chat Completions carries function calls only), by their index.
  const ignored = new Set<number>();
  let started = false;
  let id: string | undefined;
  let usage: unknown;
  let text: string | undefined;
  let refusal: string | undefined;
  let reasoning = '';
  const audio = new StreamedAudio();
  let finishReason: string | null = null;
  const meta: Json = {};
  for await (const chunk of chunks) {
    if (!isRecord(chunk)) {
      yield { type: 'model', event: chunk, providerData: RAW };
      continue;
    }
    if (!started) {
      started = true;
      yield { type: 'response_started', providerData: { ...chunk } };
    }
    if (id === undefined && typeof chunk.id === 'string' && chunk.id !== '') id = chunk.id;
    if (isRecord(chunk.usage)) usage = chunk.usage;
    for (const key of ['model', 'system_fingerprint', 'service_tier']) if (chunk[key] !== undefined && chunk[key] !== null) meta[key] = chunk[key];
    yield { type: 'model', event: chunk, providerData: RAW };
    const choice = Array.isArray(chunk.choices) ? chunk.choices.find((c) => isRecord(c) && (c.index ?? 0) === 0) : undefined;
    if (!isRecord(choice)) continue;
    if (typeof choice.finish_reason === 'string') finishReason = choice.finish_reason;
    const delta = isRecord(choice.delta) ? choice.delta : {};
    audio.add(delta);
    if (typeof delta.content === 'string' && delta.content !== '') {
      text = (text ?? '') + delta.content;
      const event: ModelStreamEvent = { type: 'output_text_delta', delta: delta.content, providerData: { ...chunk } };
      if (id !== undefined) event.itemId = id;
      yield event;
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') refusal = (refusal ?? '') + delta.refusal;
    const reasoningDelta = reasoningOf(delta);
    if (reasoningDelta) reasoning += reasoningDelta;
    if (Array.isArray(delta.tool_calls)) {
      for (const part of delta.tool_calls) {
        if (!isRecord(part)) continue;
        const index = typeof part.index === 'number' ? part.index : 0;
        if (ignored.has(index)) continue;
        if (part.type === 'custom') {
          if (options.strict === true) throw new UserError('Custom tool calls are not supported by the Chat Completions converter.');
          ignored.add(index);
          continue;
        }
        addToolCallDelta(calls, part);
      }
    }
  }
  const hasOutput = Boolean(text || refusal || audio.present || calls.size > 0 || ignored.size > 0);
  if (isFilteredEmpty(finishReason, hasOutput)) refusal = CONTENT_FILTER_REFUSAL_MESSAGE;
  if (
    isTruncatedEmpty({
      finishReason,
      hasText: Boolean(text),
      hasRefusal: Boolean(refusal),
      hasAudio: audio.present,
      hasReasoning: reasoning.length > 0,
      hasFunctionCall: calls.size > 0,
    })
  ) {
    throw new OpenAIResponseError('length', 'chat_completions', options.requestId, new Usage(streamedUsage(usage)));
  }
  const responseId = id ?? `chatcmpl_${globalThis.crypto.randomUUID()}`;
  const done: ModelStreamEvent = {
    type: 'response_done',
    response: {
      id: responseId,
      usage: streamedUsage(usage),
      output: streamedOutput(responseId, text, refusal, reasoning, audio.content(), calls),
      providerData: { ...meta, finish_reason: finishReason },
    },
  };
  if (options.requestId !== undefined) done.response.requestId = options.requestId;
  if (options.preserveRawUsage === true) {
    const rawUsage = snapshotRawUsage(usage);
    if (rawUsage !== undefined) done.response.rawUsage = rawUsage;
  }
  yield done;
}

function streamedOutput(id: string, text: string | undefined, refusal: string | undefined, reasoning: string, audio: AudioContent | undefined, calls: Map<number, StreamedCall>): AgentOutputItem[] {
  const output: AgentOutputItem[] = [];
  if (reasoning) output.push({ type: 'reasoning', content: [], rawContent: [{ type: 'reasoning_text', text: reasoning }] });
  const content: AssistantContent[] = [];
  if (text !== undefined) content.push({ type: 'output_text', text, providerData: { annotations: [] } });
  if (refusal !== undefined) content.push({ type: 'refusal', refusal });
  // A spoken answer is the message only when it has no text or refusal.
  if (content.length === 0 && audio !== undefined) content.push(audio);
  if (content.length > 0) output.push({ id, type: 'message', role: 'assistant', status: 'completed', content });
  for (const [, call] of [...calls.entries()].sort(([a], [b]) => a - b)) {
    output.push({
      id,
      type: 'function_call',
      callId: call.callId || `call_${globalThis.crypto.randomUUID().replace(/-/g, '')}`,
      name: call.name,
      // Kept exactly as sent, even when it is not valid JSON: the run loop answers the model with a parse error.
      arguments: call.arguments.startsWith('{}{') ? call.arguments.slice(2) : call.arguments,
    });
  }
  return output;
}

function addToolCallDelta(calls: Map<number, StreamedCall>, part: Json): void {
  const index = typeof part.index === 'number' ? part.index : 0;
  let call = calls.get(index);
  if (call === undefined) {
    call = { callId: '', name: '', arguments: '' };
    calls.set(index, call);
  }
  if (typeof part.id === 'string' && part.id !== '' && call.callId === '') call.callId = part.id;
  const fn = isRecord(part.function) ? part.function : {};
  // Most servers send the name whole once; a few repeat it or split it.
  if (typeof fn.name === 'string' && fn.name !== call.name) call.name += fn.name;
  if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
}
