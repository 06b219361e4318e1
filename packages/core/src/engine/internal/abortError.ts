import { inCauseChain } from './causeChain.js';

/**
 * An abort error: one named `AbortError` (a DOMException, a fetch's, an SDK's own), or an error
 * caused by one (a provider's error that wraps the abort it saw), as a provider ends a call it was
 * asked to stop.
 */
export function isAbortError(error: unknown): boolean {
  return inCauseChain(error, (link) => typeof link === 'object' && (link as { name?: unknown }).name === 'AbortError');
}
