import type { FakeOutput, FakeResponseTurn, FakeUsage } from './turns.js';
import { splitText, type IdSource } from './wireUtils.js';

type Json = Record<string, unknown>;

/** A Responses API `usage` object. */
export function responsesUsage(usage: FakeUsage = {}): Json {
  const input = usage.inputTokens ?? 10;
  const output = usage.outputTokens ?? 5;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: input + output,
  };
}

/** Output items as the Responses API returns them, ids assigned. */
function outputItems(output: readonly FakeOutput[], ids: IdSource): Json[] {
  return output.map((piece) => {
    switch (piece.type) {
      case 'message':
        return { id: ids.next('msg'), type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: piece.text, annotations: [], logprobs: [] }] };
      case 'refusal':
        return { id: ids.next('msg'), type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: piece.refusal }] };
      case 'function_call':
        return { id: ids.next('fc'), type: 'function_call', status: 'completed', call_id: piece.callId ?? ids.next('call'), name: piece.name, arguments: piece.arguments };
      case 'reasoning':
        return { id: ids.next('rs'), type: 'reasoning', summary: [{ type: 'summary_text', text: piece.summary }] };
      case 'item':
        return structuredClone(piece.item) as Json;
    }
  });
}

/** The full `response` object for a turn. */
export function responsesObject(turn: FakeResponseTurn, body: Json, ids: IdSource, output: Json[] = outputItems(turn.output, ids)): Json {
  const status = turn.status ?? 'completed';
  const format = (body.text as Json | undefined)?.format ?? { type: 'text' };
  return {
    id: ids.next('resp'),
    object: 'response',
    created_at: 1_700_000_000,
    status,
    error: status === 'failed' ? (turn.error ?? { code: 'server_error', message: 'The model failed to produce a response.' }) : null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    model: body.model ?? 'fake-model',
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    temperature: body.temperature ?? 1,
    text: { format },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    usage: responsesUsage(turn.usage),
  };
}

/** The event sequence the Responses API streams for a turn (without `sequence_number`s). */
export function responsesEvents(turn: FakeResponseTurn, body: Json, ids: IdSource): Json[] {
  const items = outputItems(turn.output, ids);
  const final = responsesObject(turn, body, ids, items);
  const started = { ...final, status: 'in_progress', output: [], usage: null, error: null, incomplete_details: null };
  const events: Json[] = [
    { type: 'response.created', response: started },
    { type: 'response.in_progress', response: started },
  ];
  const chunks = turn.stream?.deltaChunks ?? 2;
  items.forEach((item, outputIndex) => {
    const itemId = item.id as string;
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: inProgress(item) });
    if (item.type === 'message') {
      const part = (item.content as Json[])[0]!;
      const base = { item_id: itemId, output_index: outputIndex, content_index: 0 };
      if (part.type === 'output_text') {
        events.push({ type: 'response.content_part.added', ...base, part: { type: 'output_text', text: '', annotations: [] } });
        for (const delta of splitText(part.text as string, chunks)) events.push({ type: 'response.output_text.delta', ...base, delta, logprobs: [] });
        events.push({ type: 'response.output_text.done', ...base, text: part.text, logprobs: [] });
      } else {
        events.push({ type: 'response.content_part.added', ...base, part: { type: 'refusal', refusal: '' } });
        for (const delta of splitText(part.refusal as string, chunks)) events.push({ type: 'response.refusal.delta', ...base, delta });
        events.push({ type: 'response.refusal.done', ...base, refusal: part.refusal });
      }
      events.push({ type: 'response.content_part.done', ...base, part });
    } else if (item.type === 'function_call') {
      const base = { item_id: itemId, output_index: outputIndex };
      for (const delta of splitText(item.arguments as string, chunks)) events.push({ type: 'response.function_call_arguments.delta', ...base, delta });
      events.push({ type: 'response.function_call_arguments.done', ...base, name: item.name, arguments: item.arguments });
    } else if (item.type === 'reasoning') {
      const base = { item_id: itemId, output_index: outputIndex, summary_index: 0 };
      const part = (item.summary as Json[])[0]!;
      events.push({ type: 'response.reasoning_summary_part.added', ...base, part: { type: 'summary_text', text: '' } });
      for (const delta of splitText(part.text as string, chunks)) events.push({ type: 'response.reasoning_summary_text.delta', ...base, delta });
      events.push({ type: 'response.reasoning_summary_text.done', ...base, text: part.text });
      events.push({ type: 'response.reasoning_summary_part.done', ...base, part });
    }
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  const terminal = final.status === 'failed' ? 'response.failed' : final.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  events.push({ type: terminal, response: final });
  return events;
}

function inProgress(item: Json): Json {
  if (item.type === 'message') return { ...item, status: 'in_progress', content: [] };
  if (item.type === 'function_call') return { ...item, status: 'in_progress', arguments: '' };
  if (item.type === 'reasoning') return { ...item, summary: [] };
  return item;
}
