/**
 * Calls `onIdle` once a stream has been waited on for `ms` without an event. Only the time spent
 * waiting for the source counts (`waiting()` … `busy()`), not the time the caller takes to read: a
 * slow reader is backpressure, not a stalled server. One timer per stream, re-armed lazily, so an
 * event costs a clock read rather than a timer.
 */
export class IdleWatchdog {
  #waitingSince: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.#arm(ms);
  }

  /** The stream is being waited on from now. */
  waiting(): void {
    this.#waitingSince = Date.now();
  }

  /** An event arrived: the wait is over until the next `waiting()`. */
  busy(): void {
    this.#waitingSince = undefined;
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #arm(delay: number): void {
    if (!this.#stopped) this.#timer = setTimeout(() => this.#check(), delay);
  }

  #check(): void {
    if (this.#waitingSince === undefined) return this.#arm(this.ms);
    const idle = Date.now() - this.#waitingSince;
    if (idle >= this.ms) {
      this.#stopped = true;
      this.onIdle();
    } else {
      this.#arm(this.ms - idle);
    }
  }
}
