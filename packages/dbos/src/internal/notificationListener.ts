import * as Effect from 'effect/Effect';
import * as Schedule from 'effect/Schedule';
import pg from 'pg';
import { EVENTS_CHANNEL } from './runEvents.js';

/** Reconnecting after the session was lost: 100 ms, then backing off to every 2 s, for as long as someone follows. */
const RECONNECT = Schedule.min([Schedule.exponential('100 millis'), Schedule.spaced('2 seconds')]);

/**
 * The one `LISTEN` connection of a client, shared by all its followers: however many runs are
 * followed, one connection waits for notifications, outside the pool the reads use, so followers
 * never starve each other. A lost session (a database restart, a terminated backend, a network
 * failure) is an event, not a crash: the connection is opened again, and every follower is woken
 * whenever notifications may have been missed (the session was lost, or is back), so it reads from
 * the last event it saw: nothing is missed and nothing repeated.
 */
export class RunEventListener {
  readonly #subscribers = new Map<string, Set<() => void>>();
  readonly #stopped = new AbortController();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;

  constructor(private readonly connectionString: string) {}

  /** Calls `wake` when an event of `runId` is written, and when notifications may have been missed. Returns the unsubscribe. */
  subscribe(runId: string, wake: () => void): () => void {
    let wakes = this.#subscribers.get(runId);
    if (!wakes) this.#subscribers.set(runId, (wakes = new Set()));
    const own = () => wake(); // its own identity: one follower's unsubscribe never removes another's
    wakes.add(own);
    if (!this.#client) this.#connect();
    return () => {
      wakes.delete(own);
      if (wakes.size === 0 && this.#subscribers.get(runId) === wakes) this.#subscribers.delete(runId);
    };
  }

  /** Ends the connection and stops reconnecting (bounded: a connection that does not answer is dropped). */
  async close(): Promise<void> {
    this.#stopped.abort();
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  #connect(): void {
    if (this.#connecting || this.#stopped.signal.aborted) return;
    const connectOnce = Effect.tryPromise({ try: () => this.#open(), catch: (error) => error });
    this.#connecting = Effect.runPromise(connectOnce.pipe(Effect.retry({ schedule: RECONNECT, while: () => !this.#stopped.signal.aborted })), { signal: this.#stopped.signal })
      .catch(() => undefined)
      .finally(() => (this.#connecting = undefined));
  }

  async #open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: 10_000, keepAlive: true });
    client.on('error', () => this.#lost(client)); // without a listener, pg's 'error' would end the process
    client.on('end', () => this.#lost(client));
    client.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL && message.payload !== undefined) this.#wake(this.#subscribers.get(message.payload));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#stopped.signal.aborted) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    // Events written before LISTEN took effect announced nothing: every follower reads again.
    this.#wakeAll();
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.end().catch(() => undefined);
    this.#wakeAll();
    if (this.#subscribers.size > 0) this.#connect();
  }

  #wakeAll(): void {
    for (const wakes of this.#subscribers.values()) this.#wake(wakes);
  }

  #wake(wakes: Set<() => void> | undefined): void {
    for (const wake of wakes ?? []) wake();
  }
}
