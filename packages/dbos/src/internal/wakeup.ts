/**
 * A follower's doorbell: `ring()` wakes a `wait`, and a ring while nobody waits is kept, so a
 * notification that arrives while the follower is reading is not lost (its next wait returns at once).
 */
export class Wakeup {
  #rung = false;
  #waiter: (() => void) | undefined;

  ring(): void {
    this.#rung = true;
    this.#waiter?.();
  }

  /** Forgets earlier rings: call before reading what a ring would announce. */
  reset(): void {
    this.#rung = false;
  }

  /** Resolves at the next ring (at once if one came since `reset`), or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.#rung) {
      this.#rung = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiter = undefined;
        this.#rung = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiter = done;
    });
  }
}
