import * as Effect from 'effect/Effect';

/**
 * Fixes the order in which concurrent lanes (the tool calls of one response, guardrails of one
 * batch) start their steps, so an engine that numbers steps by start order sees the same numbers
 * on every run: every lane's first step in lane order, then every lane's second step, and so on; a
 * lane that has ended is skipped. A lane waits only for the start (not the end) of the steps
 * before it in that order, except when the lane before it is between steps: then until that lane
 * starts its next step or ends. The lanes still run concurrently.
 */
export class StartOrder {
  readonly #started: number[];
  readonly #ended: boolean[];
  #waiting: Array<() => boolean> = [];

  constructor(lanes: number) {
    this.#started = new Array<number>(lanes).fill(0);
    this.#ended = new Array<boolean>(lanes).fill(false);
  }

  /** Waits until `lane` may start its next step. */
  turnOf(lane: number): Effect.Effect<void> {
    return Effect.callback<void>((resume) => {
      if (this.#mayStart(lane)) return resume(Effect.void);
      const check = () => {
        if (!this.#mayStart(lane)) return false;
        resume(Effect.void);
        return true;
      };
      this.#waiting.push(check);
      return Effect.sync(() => void (this.#waiting = this.#waiting.filter((waiter) => waiter !== check)));
    });
  }

  /**
   * Called right before the lane's step goes to the step runner. The next lane is let go on a later
   * microtask, so the runner's own start of this step (its synchronous part) comes first.
   */
  started(lane: number): void {
    this.#started[lane]! += 1;
    queueMicrotask(() => this.#wake());
  }

  ended(lane: number): void {
    this.#ended[lane] = true;
    this.#wake();
  }

  #mayStart(lane: number): boolean {
    const k = this.#started[lane]!;
    for (let other = 0; other < this.#started.length; other++) {
      if (other === lane || this.#ended[other]) continue;
      const needed = other < lane ? k + 1 : k;
      if (this.#started[other]! < needed) return false;
    }
    return true;
  }

  /** Lets the lane whose turn it is go (at most one at a time can be). */
  #wake(): void {
    const index = this.#waiting.findIndex((check) => check());
    if (index >= 0) this.#waiting.splice(index, 1);
  }
}
