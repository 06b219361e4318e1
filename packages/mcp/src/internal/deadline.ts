/**
 * `promise`, or a rejection naming `what` once `timeoutMs` has passed (`null` waits as long as it
 * takes). The operation itself is not stopped: the caller cuts it (closes the transport, kills the
 * process) when it stops waiting.
 */
export function withDeadline<T>(promise: Promise<T>, timeoutMs: number | null, what: string): Promise<T> {
  if (timeoutMs === null) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${timeoutMs} ms ${what}.`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
