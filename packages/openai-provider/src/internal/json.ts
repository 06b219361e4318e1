/** A JSON object as sent to or received from the OpenAI API. */
export type Json = Record<string, unknown>;

/** A copy without the keys whose value is `undefined` (the API rejects some explicit nulls, never absent keys). */
export function compact<T extends Json>(value: T): T {
  const out: Json = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) out[key] = entry;
  return out as T;
}

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The keys of `value` other than `omit`, or undefined when none are left. */
export function rest(value: Json, omit: readonly string[]): Json | undefined {
  const out: Json = {};
  for (const [key, entry] of Object.entries(value)) if (!omit.includes(key) && entry !== undefined) out[key] = entry;
  return Object.keys(out).length > 0 ? out : undefined;
}
