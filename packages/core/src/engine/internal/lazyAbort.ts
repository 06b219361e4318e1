/**
 * An abort controller made only when someone reads its signal. Making an `AbortController` costs
 * more than the rest of a tool call's bookkeeping (measured: about 9 % of a turn's CPU with two
 * calls a turn), and most tools and many models never read `signal`. Aborting before anyone read
 * it is remembered: a signal read afterwards is already aborted, with the same reason.
 */
/** What `LazyAbort.follow` tells when it aborts: another `LazyAbort`, or anything that must stop with it. */
export interface AbortFollower {
  abort(reason?: unknown): void;
}

export class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  /** Aborts that follow this one (`follow`), fired with its reason. */
  #followers: AbortFollower[] | undefined;

  /** Whether `abort` was called; reading it makes no signal. */
  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

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
    const followers = this.#followers;
    this.#followers = undefined;
    if (followers !== undefined) for (const follower of followers) follower.abort(reason);
  }

  /**
   * `follower` aborts when this does, with the same reason (at once when this has aborted). Two
   * lazy aborts linked this way cost no `AbortController` and no `AbortSignal.any` until a signal
   * is read (measured: those were a tenth of a streamed turn's CPU).
   */
  follow(follower: AbortFollower): void {
    if (this.#aborted) follower.abort(this.#reason);
    else (this.#followers ??= []).push(follower);
  }
}

/** Where an object with a lazy `signal` (`withLazySignal`, `lazySignalOf`) keeps the abort it reads it from. */
export const SIGNAL_SOURCE = Symbol('baton.signalSource');

/**
 * One `signal` accessor for every such object. A getter of its own per object (a closure in the
 * literal) cost a runtime call each, about 0.4 µs, measured on Node 20; a shared one is a map
 * transition V8 caches, about a third of that.
 */
const LAZY_SIGNAL: PropertyDescriptor = {
  get(this: { readonly [SIGNAL_SOURCE]: LazyAbort }): AbortSignal {
    return this[SIGNAL_SOURCE].signal;
  },
  enumerable: true,
  configurable: true,
};

/** `fields` (holding their abort under `SIGNAL_SOURCE`) with a `signal` read from that abort when (and only when) someone reads it. */
export function lazySignalOf<T extends { readonly [SIGNAL_SOURCE]: LazyAbort }>(fields: T): T & { readonly signal: AbortSignal } {
  return Object.defineProperty(fields, 'signal', LAZY_SIGNAL) as T & { readonly signal: AbortSignal };
}

/**
 * A copy of `target` with a `signal` property read from `abort` when (and only when) someone reads
 * it. The abort goes before the spread: on V8 11 (Node 20) a literal with a new property after a
 * spread got a hidden class of its own per object (measured: about 1 µs a copy, and every later
 * read of it megamorphic).
 */
export function withLazySignal<T extends object>(target: T, abort: LazyAbort): T & { readonly signal: AbortSignal } {
  return lazySignalOf({ [SIGNAL_SOURCE]: abort, ...target });
}
