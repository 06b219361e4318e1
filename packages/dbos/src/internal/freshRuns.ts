import type { NotificationListener } from './notificationListener.js';
import { RUN_ENDED_CHANNEL } from './statusNotifications.js';

/** Runs watched at most; the oldest is dropped beyond (its `result()` then reads first, as for any run). */
const MAX_WATCHED = 10_000;

/**
 * The runs a client has just put on the queue itself, while its listening session already listened
 * for run endings: until a notification says the run's workflow ended (or the session was lost, when
 * one may have been missed), the client knows without asking that the run is queued or running at
 * revision 0. So its `result()` waits for the notification (or the safety-net poll) instead of
 * reading the status first: one statement a run less, on each side of the connection.
 *
 * Only a run the client created counts (the enqueue refused an id in use), and only while the
 * session listened before the enqueue committed, so the end's notification cannot have gone past it.
 * Watching adds no `LISTEN`: a client that only starts runs is not sent every run's ending.
 */
export class FreshRuns {
  /** Run id -> whether its end may have been notified, and its subscription. */
  readonly #runs = new Map<string, { ended: boolean; readonly unsubscribe: () => void }>();

  constructor(private readonly listener: NotificationListener) {}

  /** Before the enqueue: watches the run when an end notification would reach this client. Returns whether it does. */
  watch(runId: string): boolean {
    if (!this.listener.listening(RUN_ENDED_CHANNEL) || this.#runs.has(runId)) return false;
    const entry = { ended: false, unsubscribe: () => {} };
    entry.unsubscribe = this.listener.subscribe(RUN_ENDED_CHANNEL, runId, () => (entry.ended = true));
    this.#runs.set(runId, entry);
    for (const [oldest] of this.#runs) {
      if (this.#runs.size <= MAX_WATCHED) break;
      this.forget(oldest);
    }
    return true;
  }

  /** Stops watching (the enqueue failed or found the id in use; the result was asked for). */
  forget(runId: string): void {
    this.#runs.get(runId)?.unsubscribe();
    this.#runs.delete(runId);
  }

  /** Whether the run is still surely queued or running at revision 0; stops watching it either way. */
  take(runId: string): boolean {
    const entry = this.#runs.get(runId);
    this.forget(runId);
    return entry !== undefined && !entry.ended;
  }
}
