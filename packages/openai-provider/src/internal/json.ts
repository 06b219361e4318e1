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

/** `providerData` without the keys the item or part sets itself, keys as given (the Chat Completions way). */
export function extraFields(providerData: unknown, reserved: readonly string[]): Json {
  if (!isRecord(providerData)) return {};
  const out: Json = {};
  for (const [key, value] of Object.entries(providerData)) if (!reserved.includes(key)) out[key] = value;
  return out;
}

/**
 * An item's `providerData` as sent back to the API with it, the way the reference sends it: keys
 * in snake_case (at every depth), without the keys the item itself sets.
 */
export function providerFields(providerData: unknown, reserved: readonly string[]): Json {
  if (!isRecord(providerData)) return {};
  const skip = new Set(reserved.map(snakeCase));
  const out: Json = {};
  for (const [key, value] of Object.entries(snakeCased(providerData) as Json)) if (!skip.has(key) && value !== undefined) out[key] = value;
  return out;
}

function snakeCase(key: string): string {
  return key.replace(/([A-Z])/g, '_$1').toLowerCase();
}

function snakeCased(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice();
  if (!isRecord(value)) return value;
  const out: Json = {};
  for (const [key, entry] of Object.entries(value)) out[snakeCase(key)] = snakeCased(entry);
  return out;
}
