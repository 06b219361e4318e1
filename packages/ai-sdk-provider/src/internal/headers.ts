/** Response headers as the AI SDK hands them over: a plain record (names usually lower-cased). */
export type HeaderRecord = Readonly<Record<string, string | undefined>> | undefined;

export function header(headers: HeaderRecord, name: string): string | undefined {
  if (headers === undefined) return undefined;
  const direct = headers[name];
  if (direct !== undefined) return direct;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
}

/** The vendor's request id, from the headers vendors use (`x-request-id`; Anthropic's `request-id`; AWS's `x-amzn-requestid`). */
export function requestIdOf(headers: HeaderRecord): string | undefined {
  return header(headers, 'x-request-id') ?? header(headers, 'request-id') ?? header(headers, 'x-amzn-requestid');
}

/** `retry-after-ms`, else `retry-after` as seconds or an HTTP date, in milliseconds; undefined when absent or invalid. */
export function retryAfterMsOf(headers: HeaderRecord, now: number = Date.now()): number | undefined {
  const millis = header(headers, 'retry-after-ms');
  if (millis !== undefined && millis.trim() !== '') {
    const value = Number(millis);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = header(headers, 'retry-after');
  if (after === undefined || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
