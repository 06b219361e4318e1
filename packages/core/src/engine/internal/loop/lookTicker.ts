/** Something looked at on every tick of its interval; `look` returns false once it needs no more looks. */
export interface Looker {
  look(): boolean;
}

type Timer = ReturnType<typeof setInterval>;

/**
 * One interval timer per look interval, shared by every looker on that interval (the idle
 * watchdogs of the streams in flight). A timer per model call cost more than the rest of the
 * watchdog (measured in apps/bench: ~2 % of a streamed turn, to insert and remove it). The timer
 * keeps the process alive only while someone is looked at, and is cleared at the first tick that
 * finds nobody: a process whose streams have ended keeps no timer.
 */
export class LookTicker {
  static readonly #byInterval = new Map<number, LookTicker>();
  readonly #lookers = new Set<Looker>();
  readonly #timer: Timer;

  private constructor(private readonly interval: number) {
    this.#timer = setInterval(() => this.#tick(), interval);
  }

  /** `looker` is looked at every `interval` ms, first within `interval` ms, until `leave` or its `look` returns false. */
  static join(interval: number, looker: Looker): LookTicker {
    let ticker = LookTicker.#byInterval.get(interval);
    if (ticker === undefined) {
      ticker = new LookTicker(interval);
      LookTicker.#byInterval.set(interval, ticker);
    }
    if (ticker.#lookers.size === 0) refTimer(ticker.#timer, true);
    ticker.#lookers.add(looker);
    return ticker;
  }

  leave(looker: Looker): void {
    if (this.#lookers.delete(looker) && this.#lookers.size === 0) refTimer(this.#timer, false);
  }

  #tick(): void {
    if (this.#lookers.size === 0) {
      clearInterval(this.#timer);
      LookTicker.#byInterval.delete(this.interval);
      return;
    }
    let failure: { error: unknown } | undefined;
    for (const looker of this.#lookers) {
      let again = false;
      try {
        again = looker.look();
      } catch (error) {
        failure ??= { error };
      }
      if (!again) this.leave(looker);
    }
    // One looker's failure does not starve the others; it surfaces afterwards, as the timer's own would.
    if (failure !== undefined) throw failure.error;
  }
}

/** Node's timers can stop holding the process open; a browser's are numbers, with nothing to hold. */
function refTimer(timer: Timer, ref: boolean): void {
  const handle = timer as { ref?: () => void; unref?: () => void };
  if (ref) handle.ref?.();
  else handle.unref?.();
}
