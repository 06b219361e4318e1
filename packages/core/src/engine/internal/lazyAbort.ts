/**
 * An abort controller made only when someone reads its signal. Making an `AbortController` costs
 * more than the rest of a tool call's bookkeeping (measured: about 9 % of a turn's CPU with two
 * calls a turn), and most tools and many models never read `signal`. Aborting before anyone read
 * it is remembered: a signal read afterwards is already aborted, with the same reason.
 */
export class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** `target` with a `signal` property read from `abort` when (and only when) someone reads it. */
export function withLazySignal<T extends object>(target: T, abort: LazyAbort): T & { readonly signal: AbortSignal } {
  return Object.defineProperty(target, 'signal', { get: () => abort.signal, enumerable: true, configurable: true }) as T & { readonly signal: AbortSignal };
}
