/** A JSON object as exchanged with the AI SDK (call options, provider metadata). */
export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A plain object (not a class instance such as a `Date`, `URL` or `Uint8Array`). */
export function isPlainObject(value: unknown): value is Json {
  if (!isRecord(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** `T` with its possibly-undefined properties made optional (and never undefined). */
export type Compacted<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** A copy without the keys whose value is `undefined` (the spec's optional fields are left out, never set to undefined). */
export function compact<T extends Json>(value: T): Compacted<T> {
  const out: Json = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) out[key] = entry;
  return out as Compacted<T>;
}

/** Parsed JSON, or `undefined` when the text is not JSON. */
export function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** A short, single-line preview of a value for error messages. */
export function preview(value: unknown, max = 200): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
