/** Deterministic ids per server: `msg_1`, `fc_2`, `call_3`, ... */
export class IdSource {
  #next = 1;
  next(prefix: string): string {
    return `${prefix}_${this.#next++}`;
  }
}

/** Splits a string into at most `pieces` non-empty parts (one empty part for an empty string). */
export function splitText(text: string, pieces: number): string[] {
  if (text.length === 0) return [''];
  const count = Math.max(1, Math.min(pieces, text.length));
  const size = Math.ceil(text.length / count);
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

/** Scripted function-call arguments as a parsed value, or the raw string when they are not valid JSON. */
export function parsedArguments(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}
