import * as Effect from 'effect/Effect';
import * as Schedule from 'effect/Schedule';
import pg from 'pg';

/** Reconnecting after the session was lost: 100 ms, then backing off to every 2 s, for as long as someone follows. */
const RECONNECT = Schedule.min([Schedule.exponential('100 millis'), Schedule.spaced('2 seconds')]);

/**
 * The one `LISTEN` connection of a client (or a worker), shared by everything that waits on it: a
 * subscriber names a channel and a payload (a run id, a queue name) and is woken by a notification
 * of that payload on that channel. However many runs are followed, one connection waits for
 * notifications, outside the pool the reads use, so followers never starve each other. A lost
 * session (a database restart, a terminated backend, a network failure) is an event, not a crash:
 * the connection is opened again, and every subscriber is woken whenever notifications may have
 * been missed (the session was lost, or is back), so it reads again: a follower from the last event
 * it saw (nothing missed, nothing repeated), a worker's dispatcher from the queue.
 */
export class NotificationListener {
  readonly #subscribers = new Map<string, Set<() => void>>();
  readonly #stopped = new AbortController();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly channels: readonly string[],
  ) {}

  /** Calls `wake` at each notification of `payload` on `channel`, and when notifications may have been missed. Returns the unsubscribe. */
  subscribe(channel: string, payload: string, wake: () => void): () => void {
    const key = subscriptionKey(channel, payload);
    let wakes = this.#subscribers.get(key);
    if (!wakes) this.#subscribers.set(key, (wakes = new Set()));
    const own = () => wake(); // its own identity: one follower's unsubscribe never removes another's
    wakes.add(own);
    if (!this.#client) this.#connect();
    return () => {
      wakes.delete(own);
      if (wakes.size === 0 && this.#subscribers.get(key) === wakes) this.#subscribers.delete(key);
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
      if (message.payload !== undefined) this.#wake(this.#subscribers.get(subscriptionKey(message.channel, message.payload)));
    });
    try {
      await client.connect();
      // One statement: the session's current query then names every channel listened to.
      await client.query(this.channels.map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#stopped.signal.aborted) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    // Notifications sent before LISTEN took effect reached nobody: every subscriber looks again.
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

function subscriptionKey(channel: string, payload: string): string {
  return `${channel}\u0000${payload}`;
}
