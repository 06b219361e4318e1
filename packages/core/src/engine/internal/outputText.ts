/**
 * The text of a model response as the reference reads it: a response that is only assistant
 * messages around reasoning (or tool search) items says one thing in parts, so its messages' text
 * is joined; any other response's text is its last item's (empty when that is not a message).
 */

const SEGMENT_TYPES = new Set(['message', 'reasoning', 'tool_search_call', 'tool_search_output']);

export function responseOutputText(output: readonly { type?: string }[]): string {
  if (output.length === 0) return '';
  const segmented = output.some((item) => item.type !== 'message' && SEGMENT_TYPES.has(item.type ?? '')) && output.every((item) => SEGMENT_TYPES.has(item.type ?? 'message'));
  if (!segmented) return assistantText(output[output.length - 1]!) ?? '';
  return output.map((item) => assistantText(item) ?? '').join('');
}

/** The output text of an assistant message, or undefined when it has none. */
export function assistantText(item: { type?: string }): string | undefined {
  const message = item as { type?: string; role?: string; content?: unknown };
  if ((message.type ?? 'message') !== 'message' || message.role !== 'assistant' || !Array.isArray(message.content)) return undefined;
  let text: string | undefined;
  for (const part of message.content as Array<{ type?: string; text?: string }>) {
    if (part?.type === 'output_text' && typeof part.text === 'string') text = (text ?? '') + part.text;
  }
  return text;
}
