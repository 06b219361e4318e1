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
  /**
   * The channels listened to: each from its first subscriber on, on every session. A client that
   * only waits for results is not sent the notification of every event every run writes.
   */
  readonly #channels = new Set<string>();
  /** The channels the current session's `LISTEN` has taken effect on: a notification sent on them from now on reaches it. */
  #confirmed = new Set<string>();
  readonly #stopped = new AbortController();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;

  /**
   * `channels`: PostgreSQL identifiers (Baton's own channel names), listened to once subscribed to.
   * `listeningLocks`: for a channel whose senders notify only while someone listens, the advisory
   * lock key (SQL arguments) the session holds, shared, while it listens to it.
   */
  constructor(
    private readonly connectionString: string,
    private readonly channels: readonly string[],
    private readonly listeningLocks: Readonly<Record<string, string>> = {},
  ) {}

  /** Calls `wake` at each notification of `payload` on `channel`, and when notifications may have been missed. Returns the unsubscribe. */
  subscribe(channel: string, payload: string, wake: () => void): () => void {
    if (!this.channels.includes(channel)) throw new Error(`NotificationListener: ${JSON.stringify(channel)} is not one of its channels (${this.channels.join(', ')}).`);
    const key = subscriptionKey(channel, payload);
    let wakes = this.#subscribers.get(key);
    if (!wakes) this.#subscribers.set(key, (wakes = new Set()));
    const own = () => wake(); // its own identity: one follower's unsubscribe never removes another's
    wakes.add(own);
    if (!this.#channels.has(channel)) {
      this.#channels.add(channel);
      if (this.#client) this.#listen(this.#client, [channel]);
    }
    if (!this.#client) this.#connect();
    return () => {
      wakes.delete(own);
      if (wakes.size === 0 && this.#subscribers.get(key) === wakes) this.#subscribers.delete(key);
    };
  }

  /**
   * Whether a notification on `channel` committed from now on reaches this listener's subscribers
   * (the session listens to it and has not been lost since; a loss wakes every subscriber).
   */
  listening(channel: string): boolean {
    return this.#client !== undefined && this.#confirmed.has(channel);
  }

  /** Ends the connection and stops reconnecting (bounded: a connection that does not answer is dropped). */
  async close(): Promise<void> {
    this.#stopped.abort();
    const client = this.#client;
    this.#client = undefined;
    this.#confirmed = new Set();
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
    const listened = [...this.#channels];
    try {
      await client.connect();
      await client.query(this.#listenStatement());
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#stopped.signal.aborted) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#confirmed = new Set(listened);
    // Notifications sent before LISTEN took effect reached nobody: every subscriber looks again.
    this.#wakeAll();
    const late = [...this.#channels].filter((channel) => !listened.includes(channel));
    if (late.length > 0) this.#listen(client, late);
  }

  /**
   * One statement, so that the session's current query names every channel listened to, in the
   * order the listener was given them (listening again to a channel already listened to is a no-op),
   * then takes the listening locks of those channels (session locks: held until the session ends;
   * taken again, they only count up). Subscribers read again once it has run, so a notification
   * sent before it took effect is not needed.
   */
  #listenStatement(): string {
    const channels = this.channels.filter((channel) => this.#channels.has(channel));
    return [
      ...channels.map((channel) => `LISTEN ${channel}`),
      ...channels.flatMap((channel) => (this.listeningLocks[channel] === undefined ? [] : [`SELECT pg_advisory_lock_shared(${this.listeningLocks[channel]})`])),
    ].join('; ');
  }

  /** Listens to channels first subscribed to while the session was open; then their subscribers look again (what came before reached nobody). */
  #listen(client: pg.Client, channels: readonly string[]): void {
    client.query(this.#listenStatement()).then(
      () => {
        if (this.#client === client) for (const channel of channels) this.#confirmed.add(channel);
        this.#wakeChannels(channels);
      },
      // The session failed: its 'error' or 'end' opens another, which listens to every channel.
      () => undefined,
    );
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#confirmed = new Set();
    client.end().catch(() => undefined);
    this.#wakeAll();
    if (this.#subscribers.size > 0) this.#connect();
  }

  #wakeChannels(channels: readonly string[]): void {
    for (const [key, wakes] of this.#subscribers) if (channels.some((channel) => key.startsWith(`${channel}\u0000`))) this.#wake(wakes);
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
