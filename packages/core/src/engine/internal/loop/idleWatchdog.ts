import { LookTicker, type Looker } from './lookTicker.js';

/** Checks per idle limit: the stream is declared idle after waiting between `ms` and `ms * 1.25`. */
const CHECKS_PER_LIMIT = 4;

/**
 * Calls `onIdle` once a stream has been waited on for `ms` without an event. Only the time spent
 * waiting for the source counts (`waiting()` … `busy()`), not the time the caller takes to read: a
 * slow reader is backpressure, not a stalled server. An event costs two field writes, no clock
 * read (a clock read per event was 6 % of delivering a text delta): a timer looks every `ms / 4`
 * and counts how many looks in a row found the same wait still going, so the limit is met after
 * between `ms` and `1.25 × ms` of waiting. The timer is one for every watchdog of that limit
 * (`LookTicker`): a wait begins less than one interval before the first look that sees it either way.
 */
export class IdleWatchdog implements Looker {
  /** Which wait is going on: bumped by each `waiting()`. */
  #wait = 0;
  #isWaiting = false;
  #seenWait = -1;
  #quietLooks = 0;
  #stopped = false;
  readonly #ticker: LookTicker;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.#ticker = LookTicker.join(ms / CHECKS_PER_LIMIT, this);
  }

  /** The stream is being waited on from now. */
  waiting(): void {
    this.#wait += 1;
    this.#isWaiting = true;
  }

  /** An event arrived: the wait is over until the next `waiting()`. */
  busy(): void {
    this.#isWaiting = false;
  }

  stop(): void {
    this.#stopped = true;
    this.#ticker.leave(this);
  }

  /** One look of the ticker's; false once the watchdog has fired or was stopped. */
  look(): boolean {
    if (this.#stopped) return false;
    if (this.#isWaiting && this.#wait === this.#seenWait) {
      this.#quietLooks += 1;
    } else {
      // A wait seen for the first time began within the last interval: it counts from the next look.
      this.#seenWait = this.#isWaiting ? this.#wait : -1;
      this.#quietLooks = 0;
    }
    if (this.#quietLooks >= CHECKS_PER_LIMIT) {
      this.#stopped = true;
      this.onIdle();
      return false;
    }
    return true;
  }
}
