type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A detached JSON copy of a usage object exactly as the provider sent it (for
 * `modelSettings.preserveRawUsage`): later changes to the response do not reach it. Undefined
 * when the usage is not a plain JSON object (a class instance, a cycle, a function, a non-finite
 * number, a getter that throws).
 */
export function snapshotRawUsage(usage: unknown): Record<string, unknown> | undefined {
  if (!isRecord(usage)) return undefined;
  try {
    const copy = jsonCopy(usage, new Set());
    return isRecord(copy) ? copy : undefined;
  } catch {
    // A getter that throws while the usage is read: no copy, as the reference.
    return undefined;
  }
}

const INVALID = Symbol('invalid');

function jsonCopy(value: unknown, ancestors: Set<object>): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : INVALID;
  if (typeof value !== 'object' || ancestors.has(value)) return INVALID;
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return INVALID;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.map((entry) => jsonCopy(entry, ancestors));
      return items.includes(INVALID) ? INVALID : items;
    }
    const out: Json = {};
    for (const [key, entry] of Object.entries(value)) {
      if (entry === undefined) continue;
      const copy = jsonCopy(entry, ancestors);
      if (copy === INVALID) return INVALID;
      out[key] = copy;
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}
