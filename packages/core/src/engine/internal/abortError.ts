/**
 * An abort error: one named `AbortError` (a DOMException, a fetch's, an SDK's own), or an error
 * caused by one (a provider's error that wraps the abort it saw), as a provider ends a call it was
 * asked to stop.
 */
export function isAbortError(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { name?: unknown }).name === 'AbortError') return true;
  }
  return false;
}
