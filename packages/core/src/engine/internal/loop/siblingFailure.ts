/** The reasons made by `siblingFailureReason`, so a cancellation can tell a sibling's failure from the caller's. */
const siblingFailureReasons = new WeakSet<object>();

/** The reason a sibling's failure cancels the calls still running (an `AbortError`, as a cancelled timer or fetch throws). */
export function siblingFailureReason(): Error {
  const error = new Error('Another tool call of this turn failed, so this one was cancelled.');
  error.name = 'AbortError';
  siblingFailureReasons.add(error);
  return error;
}

export function isSiblingFailureReason(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && siblingFailureReasons.has(reason);
}
