/**
 * Cancels `live` when the caller's `signal` aborts (at the next microtask when it already has).
 * The listener reaches `live` through a weak reference, so a signal the caller keeps (Node keeps
 * some for good) does not keep a finished run's state alive. Returns how to stop following.
 */
export function followCallerSignal<T extends object>(signal: AbortSignal, live: T, cancel: (live: T) => void): () => void {
  const target = { ref: new WeakRef(live) as WeakRef<T> | undefined };
  const onAbort = () => {
    const alive = target.ref?.deref();
    if (alive !== undefined) cancel(alive);
  };
  if (signal.aborted) queueMicrotask(onAbort);
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    target.ref = undefined;
    signal.removeEventListener('abort', onAbort);
  };
}

/** One signal aborted by either: `AbortSignal.any`, or on runtimes without a working one, forwarded by hand. */
export function eitherSignal(first: AbortSignal, second: AbortSignal): AbortSignal {
  try {
    return AbortSignal.any([first, second]);
  } catch {
    const combined = new AbortController();
    // Listeners that hold only the combined controller: left on a signal that outlives the run, they keep no run alive.
    const forward = () => combined.abort();
    for (const source of [first, second]) source.addEventListener('abort', forward, { once: true });
    if (first.aborted || second.aborted) combined.abort();
    return combined.signal;
  }
}
