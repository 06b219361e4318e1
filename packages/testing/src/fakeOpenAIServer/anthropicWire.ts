/**
 * Anthropic's Messages API (`POST /v1/messages`) for a scripted turn: the `message` object, the
 * streamed event sequence, and the error body.
 */
import type { FakeOutput, FakeResponseTurn, FakeUsage } from './turns.js';
import { parsedArguments, splitText, type IdSource } from './wireUtils.js';

type Json = Record<string, unknown>;

const FAILED = 'The model failed to produce a response.';

/**
 * The Messages `usage` object. The neutral `inputTokens` counts cache reads, Anthropic's
 * `input_tokens` does not, so `input_tokens = inputTokens - cachedTokens`.
 */
export function anthropicUsage(usage: FakeUsage = {}): Json {
  const cached = usage.cachedTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage.inputTokens ?? 10) - cached),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: usage.outputTokens ?? 5,
    ...(usage.reasoningTokens === undefined ? {} : { output_tokens_details: { thinking_tokens: usage.reasoningTokens } }),
  };
}

/** Content blocks, ids and signatures assigned; arguments that are not JSON stay a string in `input`. */
function contentBlocks(output: readonly FakeOutput[], ids: IdSource): Json[] {
  return output.map((piece) => {
    switch (piece.type) {
      case 'message':
        return { type: 'text', text: piece.text };
      case 'refusal':
        return { type: 'text', text: piece.refusal };
      case 'function_call':
        return { type: 'tool_use', id: piece.callId ?? ids.next('toolu'), name: piece.name, input: parsedArguments(piece.arguments) };
      case 'reasoning':
        return { type: 'thinking', thinking: piece.summary, signature: piece.signature ?? ids.next('sig') };
      case 'item':
        throw new Error('the Anthropic Messages API has no output items: script this turn for the Responses API.');
    }
  });
}

/** `max_tokens` when incomplete, `refusal` when the output refuses, `tool_use` with tool calls, else `end_turn`. */
function stopReason(turn: FakeResponseTurn): string {
  if (turn.status === 'incomplete') return 'max_tokens';
  if (turn.output.some((piece) => piece.type === 'refusal')) return 'refusal';
  return turn.output.some((piece) => piece.type === 'function_call') ? 'tool_use' : 'end_turn';
}

/** The `message` object for a turn (a `failed` turn is answered with an error instead, see `anthropicFailure`). */
export function anthropicMessage(turn: FakeResponseTurn, body: Json, ids: IdSource, content: Json[] = contentBlocks(turn.output, ids)): Json {
  return {
    id: ids.next('msg'),
    type: 'message',
    role: 'assistant',
    model: body.model ?? 'fake-model',
    content,
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: anthropicUsage(turn.usage),
  };
}

/**
 * The event sequence Anthropic streams for a turn: `message_start`, `ping`, per block
 * `content_block_start` / `content_block_delta`s / `content_block_stop`, `message_delta`,
 * `message_stop`. A `failed` turn ends with an `error` event (`api_error`) in place of the last two.
 */
export function anthropicEvents(turn: FakeResponseTurn, body: Json, ids: IdSource): Json[] {
  const blocks = contentBlocks(turn.output, ids);
  const message = anthropicMessage(turn, body, ids, blocks);
  const usage = message.usage as Json;
  const chunks = turn.stream?.deltaChunks ?? 2;
  const events: Json[] = [
    { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
    { type: 'ping' },
  ];
  blocks.forEach((block, index) => {
    const delta = (d: Json) => events.push({ type: 'content_block_delta', index, delta: d });
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of splitText(block.text as string, chunks)) delta({ type: 'text_delta', text });
    } else if (block.type === 'thinking') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } });
      for (const thinking of splitText(block.thinking as string, chunks)) delta({ type: 'thinking_delta', thinking });
      delta({ type: 'signature_delta', signature: block.signature });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      const piece = turn.output[index]!; // blocks are the output, one for one
      for (const partial_json of splitText(piece.type === 'function_call' ? piece.arguments : '', chunks)) delta({ type: 'input_json_delta', partial_json });
    }
    events.push({ type: 'content_block_stop', index });
  });
  if (turn.status === 'failed') {
    events.push({ type: 'error', error: { type: 'api_error', message: turn.error?.message ?? FAILED } });
    return events;
  }
  const { output_tokens, output_tokens_details } = usage;
  events.push({
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens, ...(output_tokens_details === undefined ? {} : { output_tokens_details }) },
  });
  events.push({ type: 'message_stop' });
  return events;
}

/** The answer to a `failed` turn asked for as JSON: a 500 `api_error`. */
export function anthropicFailure(turn: FakeResponseTurn): { status: number; body: Json } {
  return { status: 500, body: anthropicErrorBody(500, turn.error?.message ?? FAILED) };
}

/** Anthropic's error type for an HTTP status (https://docs.anthropic.com/en/api/errors). */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** `{ type: 'error', error: { type, message } }`, the type chosen by status. */
export function anthropicErrorBody(status: number, message: string): Json {
  return { type: 'error', error: { type: anthropicErrorType(status), message } };
}
