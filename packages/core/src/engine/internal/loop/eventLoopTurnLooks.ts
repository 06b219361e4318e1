/** Something looked at once after the current turn of the event loop (`EventLoopTurnLooks.request`). */
export interface TurnLooker {
  lookAfterTurn(): void;
}

/**
 * One `setImmediate` (a 0 ms timer in browsers, which have no `setImmediate`) for every looker
 * that asked for a look after the current turn of the event loop: the model stream pumps of the
 * runs in flight. An immediate per stream piled up while the event loop did not turn (runs
 * answered by instant models, one after another): measured in apps/bench, tens of thousands of
 * pending immediates, promoted to the old generation, made each minor GC of a streamed turn three
 * times as costly as a plain one. Here a looker that no longer wants its look (`cancel`) is
 * forgotten at once, and what is pending is one timer whatever the number of streams.
 */
export class EventLoopTurnLooks {
  static #pending = new Set<TurnLooker>();
  static #scheduled = false;

  /** `looker.lookAfterTurn()` runs once after the current turn of the event loop, unless cancelled first. */
  static request(looker: TurnLooker): void {
    EventLoopTurnLooks.#pending.add(looker);
    if (EventLoopTurnLooks.#scheduled) return;
    EventLoopTurnLooks.#scheduled = true;
    if (typeof setImmediate === 'function') setImmediate(EventLoopTurnLooks.#lookAll);
    else setTimeout(EventLoopTurnLooks.#lookAll, 0);
  }

  static cancel(looker: TurnLooker): void {
    EventLoopTurnLooks.#pending.delete(looker);
  }

  /** Each looker due; one that asks again during its look is looked at after the next turn. */
  static #lookAll(): void {
    EventLoopTurnLooks.#scheduled = false;
    const due = EventLoopTurnLooks.#pending;
    EventLoopTurnLooks.#pending = new Set();
    let failure: { error: unknown } | undefined;
    for (const looker of due) {
      try {
        looker.lookAfterTurn();
      } catch (error) {
        failure ??= { error };
      }
    }
    // One looker's failure does not cost the others their look; it surfaces afterwards, as the timer's own would.
    if (failure !== undefined) throw failure.error;
  }
}
