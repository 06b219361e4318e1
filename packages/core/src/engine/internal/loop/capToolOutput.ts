import type { FunctionCallResultOutput } from '@baton/types';

/**
 * A tool output over `limit` characters (its text, or the JSON of its content parts) is cut, and a
 * marker saying so ends it, before it enters history, the run state, events and traces. Outputs
 * within the limit are returned as they are (the same objects).
 */
export function capToolOutput(
  value: unknown,
  output: FunctionCallResultOutput,
  limit: number,
): { value: unknown; output: FunctionCallResultOutput } {
  if (!Number.isFinite(limit)) return { value, output };
  const text = typeof output === 'string' ? output : !Array.isArray(output) && output.type === 'text' ? output.text : JSON.stringify(output);
  if (text.length <= limit) return { value, output };
  // Never split a surrogate pair at the cut.
  const end = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
  const cut = `${text.slice(0, end)}\n\n${truncationMarker(text.length, limit)}`;
  return { value: cut, output: { type: 'text', text: cut } };
}

export function truncationMarker(length: number, limit: number): string {
  return `[output truncated: the tool returned ${length} characters; limits.maxToolOutputChars keeps ${limit}]`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
