/**
 * `JSON.stringify` that never throws: the fast path is the plain call; when that fails (a bigint,
 * a cycle, a throwing `toJSON`), bigints become strings, repeated ancestors `"[Circular]"`, and a
 * value whose `toJSON` throws its `String()` form.
 */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return JSON.stringify(sanitize(value, new Set())) ?? 'null';
  }
}

function sanitize(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return '[Circular]';
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    let replaced: unknown;
    try {
      replaced = toJSON.call(value);
    } catch {
      return String(value);
    }
    if (replaced !== value) return sanitize(replaced, ancestors);
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => sanitize(v, ancestors));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = sanitize(v, ancestors);
    return out;
  } finally {
    ancestors.delete(value);
  }
}
