const NOT_JSON = Symbol('not JSON');

/**
 * A detached JSON copy of a provider's raw usage object, or `undefined` when it is not a JSON
 * object (a class instance, a cycle, a non-finite number, a throwing getter anywhere inside).
 */
export function jsonObjectCopy(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  try {
    const out = toJson(value, new Set());
    return out === NOT_JSON ? undefined : (out as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

function toJson(value: unknown, ancestors: Set<object>): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : NOT_JSON;
  if (typeof value !== 'object' || ancestors.has(value)) return NOT_JSON;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const entry of value) {
        const json = toJson(entry, ancestors);
        if (json === NOT_JSON) return NOT_JSON;
        out.push(json);
      }
      return out;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return NOT_JSON;
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) {
      if (entry === undefined) continue;
      const json = toJson(entry, ancestors);
      if (json === NOT_JSON) return NOT_JSON;
      Object.defineProperty(out, key, { value: json, enumerable: true, writable: true, configurable: true });
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}
