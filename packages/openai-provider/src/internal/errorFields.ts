/**
 * Reading what an error thrown by an HTTP client says about the HTTP answer, whatever client threw
 * it (the `openai` client's `APIError`, a wrapper's error, a test double): the status from
 * `status` or `statusCode`, headers from `headers` or `responseHeaders` (a `Headers` object or a
 * plain object, names compared case-insensitively).
 */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { statusCode, status } = error as { statusCode?: unknown; status?: unknown };
  if (typeof statusCode === 'number') return statusCode;
  if (typeof status === 'number') return status;
  return undefined;
}

export function headerOf(error: unknown, name: string): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { headers, responseHeaders } = error as { headers?: unknown; responseHeaders?: unknown };
  for (const source of [headers, responseHeaders]) {
    if (typeof source !== 'object' || source === null) continue;
    if (typeof Headers !== 'undefined' && source instanceof Headers) return source.get(name) ?? undefined;
    const wanted = name.toLowerCase();
    for (const [key, value] of Object.entries(source)) if (key.toLowerCase() === wanted && typeof value === 'string') return value;
  }
  return undefined;
}

/** A `Headers` view of whatever headers an error carries (for `retry-after` and `x-should-retry`). */
export function headersOf(error: unknown): Headers | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { headers, responseHeaders } = error as { headers?: unknown; responseHeaders?: unknown };
  for (const source of [headers, responseHeaders]) {
    if (typeof source !== 'object' || source === null) continue;
    if (typeof Headers !== 'undefined' && source instanceof Headers) return source;
    const out = new Headers();
    for (const [key, value] of Object.entries(source)) if (typeof value === 'string') out.set(key, value);
    return out;
  }
  return undefined;
}
