import * as Effect from 'effect/Effect';

/**
 * A source the reader may read from directly while the buffer is empty (see `modelStreamForwarding`):
 * the event goes from the source to the reader without passing through the buffer.
 */
export interface DirectSource<A> {
  /**
   * The next event, read from the source for the waiting reader; `undefined` when the source cannot
   * be read now (a read of its own in flight, an event it holds, or it has ended). Once the source has
   * nothing more for the reader, the read goes on as `reader.take()`.
   */
  readForReader(reader: DirectReader<A>): Promise<IteratorResult<A, undefined>> | undefined;
}

/** The reader's side, as a direct source sees it. */
export interface DirectReader<A> {
  /** Closed: the reader takes what remains (`done`, or the failure), no more events from the source. */
  readonly closed: boolean;
  take(): Promise<IteratorResult<A, undefined>>;
}

/**
 * The bounded buffer between a run and the one consumer of its events. A full buffer makes the
 * producer wait (backpressure); a waiting consumer is handed the next event directly.
 *
 * Why not Effect's `Queue`: measured in apps/bench, a fiber hop per event on both sides cost about
 * 3 µs per text delta, twice the reference SDK's whole delivery cost. This channel keeps the hot
 * path synchronous and wakes the other side with one promise; the run still sees an Effect API
 * (`offer`), so interruption and backpressure stay structured.
 */
export class EventChannel<A> implements DirectReader<A> {
  readonly #capacity: number;
  #buffer: A[] = [];
  #head = 0;
  #closed = false;
  /** Set by `fail`: what a reader sees once the buffer is drained. */
  #failure: { error: unknown } | undefined;
  #taker: { resolve: (result: IteratorResult<A, undefined>) => void; reject: (error: unknown) => void } | undefined;
  #writers: Array<() => void> = [];
  /** Read directly while the buffer is empty (a model stream being forwarded). */
  #source: DirectSource<A> | undefined;
  /** The channel as a sink that model streams are read through directly (`EventSink.direct`). */
  readonly direct = this;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#buffer.length - this.#head;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Whether the reader waits on an empty buffer. */
  get readerWaiting(): boolean {
    return this.#taker !== undefined;
  }

  /**
   * From now on a reader that finds the buffer empty reads from `source` (a reader already waiting
   * is served at once). Call only while the buffer is empty of that source's events, and
   * `detachSource` once it has ended.
   */
  attachSource(source: DirectSource<A>): void {
    this.#source = source;
    const taker = this.#taker;
    if (taker === undefined || this.size > 0) return;
    const read = source.readForReader(this);
    if (read === undefined) return;
    this.#taker = undefined;
    read.then(taker.resolve, taker.reject);
  }

  detachSource(source: DirectSource<A>): void {
    if (this.#source === source) this.#source = undefined;
  }

  /** Accepts the event unless the buffer is full. After `close`, events are accepted and dropped. */
  tryOffer(event: A): boolean {
    if (this.#closed) return true;
    const taker = this.#taker;
    if (taker) {
      this.#taker = undefined;
      taker.resolve({ done: false, value: event });
      return true;
    }
    if (this.size >= this.#capacity) return false;
    this.#buffer.push(event);
    return true;
  }

  /** Resolves when there is room (or the channel closed). */
  whenWritable(): Promise<void> {
    if (this.#closed || this.size < this.#capacity) return Promise.resolve();
    return new Promise((resolve) => this.#writers.push(resolve));
  }

  /** Offers the event, suspending while the buffer is full; interruption withdraws the wait. */
  offer(event: A): Effect.Effect<void> {
    return Effect.suspend(() => {
      if (this.tryOffer(event)) return Effect.void;
      return Effect.callback<void>((resume) => {
        const wake = () => resume(this.offer(event));
        this.#writers.push(wake);
        return Effect.sync(() => {
          this.#writers = this.#writers.filter((w) => w !== wake);
        });
      });
    });
  }

  /** The next event, or `done` once the channel is closed and drained. */
  take(): Promise<IteratorResult<A, undefined>> {
    if (this.size > 0) {
      const value = this.#buffer[this.#head]!;
      this.#head += 1;
      if (this.#head > 1024 && this.#head * 2 > this.#buffer.length) {
        this.#buffer = this.#buffer.slice(this.#head);
        this.#head = 0;
      }
      this.#wakeWriter();
      return Promise.resolve({ done: false, value });
    }
    if (this.#failure) return Promise.reject(this.#failure.error);
    if (this.#closed) return Promise.resolve({ done: true, value: undefined });
    if (this.#taker) return Promise.reject(new Error('A run’s events have one reader; another read is already waiting.'));
    const direct = this.#source?.readForReader(this);
    if (direct !== undefined) return direct;
    return new Promise((resolve, reject) => (this.#taker = { resolve, reject }));
  }

  /** No more events: the consumer drains what is buffered, then sees `done`. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#taker?.resolve({ done: true, value: undefined });
    this.#taker = undefined;
    for (const wake of this.#writers.splice(0)) wake();
  }

  /**
   * No more events, and the reader sees `error` after the buffered ones (`keepBuffered`) or at its
   * next read (the buffer is dropped). Does nothing once the channel is closed.
   */
  fail(error: unknown, keepBuffered: boolean): void {
    if (this.#closed) return;
    if (!keepBuffered) {
      this.#buffer = [];
      this.#head = 0;
    }
    this.#failure = { error };
    this.#closed = true;
    this.#taker?.reject(error);
    this.#taker = undefined;
    for (const wake of this.#writers.splice(0)) wake();
  }

  /** The consumer went away: drop what is buffered and release waiting producers. */
  discard(): void {
    this.#buffer = [];
    this.#head = 0;
    this.close();
  }

  #wakeWriter(): void {
    this.#writers.shift()?.();
  }
}
