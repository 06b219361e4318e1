/**
 * Whether `error` or one of its causes (`error.cause`, its cause, ... up to 8 deep) passes `test`.
 * The walk stops at the first value that is not an object (it has no cause to follow).
 */
export function inCauseChain(error: unknown, test: (link: unknown) => boolean): boolean {
  for (let link = error, depth = 0; link !== undefined && link !== null && depth < 8; link = (link as { cause?: unknown }).cause, depth++) {
    if (test(link)) return true;
    if (typeof link !== 'object') return false;
  }
  return false;
}
