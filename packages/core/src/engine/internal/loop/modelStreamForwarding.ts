import { snapshotRawUsage } from '@baton/types/internal';
import { RunRawModelStreamEvent, Usage, type ModelResponse, type ModelStreamEvent, type RunStreamEvent } from '@baton/types';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { DirectReader, DirectSource } from '../eventChannel.js';
import type { LazyAbort } from '../lazyAbort.js';
import type { FailedAttempts } from './failedAttempts.js';
import type { IdleWatchdog } from './idleWatchdog.js';
import type { DirectSink, LoopEnv } from './loopEnv.js';
import type { StreamAbortLedger } from './streamAbortLedger.js';
import { EventLoopTurnLooks, type TurnLooker } from './eventLoopTurnLooks.js';

/** A streamed call that keeps no events (the default runner records nothing). */
export const NO_EVENTS: ModelStreamEvent[] = [];

export interface StreamForwarding {
  readonly abort: LazyAbort;
  readonly record: RunRecord;
  readonly env: LoopEnv;
  /** Set once the stream produced an event (a retry after that would repeat them to the caller). */
  readonly progress: { producedEvents: boolean };
  /** Where a recorded call keeps its events (`NO_EVENTS`: kept nowhere). */
  readonly events: ModelStreamEvent[];
  readonly watchdog?: IdleWatchdog | undefined;
  readonly failures?: FailedAttempts | undefined;
  readonly ledger?: StreamAbortLedger | undefined;
  /** `modelSettings.preserveRawUsage`: the response keeps a detached copy of the provider's usage object. */
  readonly preserveRawUsage?: boolean | undefined;
  /** The attempt's `modelSettings.timeoutMs`: it stops once the response is done. */
  readonly timeout?: { stop(): void } | undefined;
}

/**
 * Reads one model call's stream to its end: each event is observed (the response and its usage,
 * the abort ledger, the recorded events) and, when the run's events are read, handed to the reader.
 * Resolves with the `response_done` response (undefined if none came). Stops reading once the run
 * is aborted, closing the stream.
 *
 * A live stream read by a reader goes straight from the provider to the reader while the reader
 * keeps asking: one promise hop per event, where a loop feeding the buffer and the reader taking
 * from it cost two (measured in apps/bench: the difference was most of Baton's delivery cost).
 * When the reader has not asked since the last turn of the event loop (a slow or absent reader), a
 * loop reads ahead into the bounded buffer instead, and waits while it is full; once the reader has
 * caught up, its reads go to the stream again. Either way events keep their order, the buffer its
 * bound, and only time spent waiting on the provider counts towards the idle limit.
 */
export function forwardStream(source: AsyncIterable<ModelStreamEvent> | Iterable<ModelStreamEvent>, forwarding: StreamForwarding): Promise<ModelResponse | undefined> {
  const direct = forwarding.env.observed ? forwarding.env.sink.direct : undefined;
  if (direct === undefined || !(Symbol.asyncIterator in source)) return forwardByLoop(source, forwarding);
  return new ModelStreamPump(source[Symbol.asyncIterator](), forwarding, direct).finished;
}

/** One loop reading the stream and offering each event (waiting while the buffer is full). */
async function forwardByLoop(source: AsyncIterable<ModelStreamEvent> | Iterable<ModelStreamEvent>, forwarding: StreamForwarding): Promise<ModelResponse | undefined> {
  const { abort, env, watchdog } = forwarding;
  const observer = new StreamObserver(forwarding);
  watchdog?.waiting();
  for await (const event of source) {
    watchdog?.busy();
    const wrapped = observer.observe(event);
    if (wrapped !== undefined) while (!env.sink.tryOffer(wrapped)) await env.sink.whenWritable();
    if (abort.aborted) break; // the run was interrupted: stop reading (return() closes the stream)
    watchdog?.waiting();
  }
  return observer.done;
}

/** What the run takes from each event, in stream order. */
class StreamObserver {
  done: ModelResponse | undefined;

  constructor(private readonly forwarding: StreamForwarding) {}

  /** Observes `event`; returns it as the run's event when the run's events are read. */
  observe(event: ModelStreamEvent): RunStreamEvent | undefined {
    const forwarding = this.forwarding;
    forwarding.progress.producedEvents = true;
    forwarding.ledger?.observe(event);
    if (forwarding.events !== NO_EVENTS) forwarding.events.push(event);
    if (event.type === 'response_done' && this.done === undefined) this.#observeDone(event.response);
    // The event's own `providerData.rawModelEventSource` names its source (read by the constructor).
    return forwarding.env.observed ? new RunRawModelStreamEvent(event) : undefined;
  }

  #observeDone(response: Extract<ModelStreamEvent, { type: 'response_done' }>['response']): void {
    const { failures, record, preserveRawUsage, timeout } = this.forwarding;
    timeout?.stop();
    const done = fromDoneEvent(response, preserveRawUsage === true);
    if (failures !== undefined) done.usage = failures.foldInto(done.usage);
    record.context.usage.add(new Usage(done.usage));
    this.done = done;
  }
}

/**
 * The `next` of every native async generator. A stream whose `next` is this one makes each result
 * object anew (called on anything but a native async generator, it rejects).
 */
const ASYNC_GENERATOR_NEXT = Object.getPrototypeOf(async function* () {}).prototype.next as unknown;

/**
 * A live stream forwarded to a reader (see `forwardStream`). One read of the stream at a time,
 * whoever makes it: the reader (`readForReader`) or the read-ahead loop.
 */
class ModelStreamPump implements DirectSource<RunStreamEvent>, TurnLooker {
  readonly finished: Promise<ModelResponse | undefined>;
  /** The call being forwarded: the stream, what observes it, the channel. Let go of once the pump is over (`#letGo`). */
  #iterator: AsyncIterator<ModelStreamEvent> | undefined;
  #forwarding: StreamForwarding | undefined;
  #sink: DirectSink | undefined;
  #observer: StreamObserver | undefined;
  #resolve!: (done: ModelResponse | undefined) => void;
  #reject!: (error: unknown) => void;
  /** A read of the stream is in flight. */
  #reading = false;
  /** The read-ahead loop runs (it may hold an event the buffer has no room for yet). */
  #readingAhead = false;
  /** The stream ended, failed or was closed: nothing more is read. */
  #over = false;
  /** The reader read since the last look (`#lookForIdleReader`). */
  #readerRead = false;
  #lookScheduled = false;
  /**
   * The reader whose read is in flight (`readForReader`), and the handlers that answer it: made
   * once per stream, not a closure per read (this is the path of every text delta).
   */
  #reader: DirectReader<RunStreamEvent> | undefined;
  /**
   * The stream is a native async generator: each read brings a new result object, seen by nobody
   * else, so the reader is handed that object with its event in place (one allocation fewer per delta).
   */
  readonly #resultsAreFresh: boolean;
  readonly #onReaderRead: (result: IteratorResult<ModelStreamEvent>) => IteratorResult<RunStreamEvent, undefined> | Promise<IteratorResult<RunStreamEvent, undefined>>;
  /** A failed read: the reader takes the run's failure from the channel. */
  readonly #onReaderReadFailed: (error: unknown) => Promise<IteratorResult<RunStreamEvent, undefined>>;

  constructor(iterator: AsyncIterator<ModelStreamEvent>, forwarding: StreamForwarding, sink: DirectSink) {
    this.#iterator = iterator;
    this.#resultsAreFresh = iterator.next === ASYNC_GENERATOR_NEXT;
    this.#forwarding = forwarding;
    this.#sink = sink;
    this.#observer = new StreamObserver(forwarding);
    this.finished = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Assigned here, not as class fields: the build's keepNames would name each on every stream.
    this.#onReaderRead = (result) => {
      const event = this.#settle(result);
      const reader = this.#reader!;
      this.#reader = undefined;
      if (event === undefined || reader.closed) return reader.take();
      if (!this.#resultsAreFresh) return { done: false, value: event };
      const fresh = result as { done: false; value: unknown };
      fresh.value = event;
      return fresh as IteratorYieldResult<RunStreamEvent>;
    };
    this.#onReaderReadFailed = (error) => {
      this.#fail(error);
      const reader = this.#reader!;
      this.#reader = undefined;
      return reader.take();
    };
    // An abort while nobody reads starts a read, so the model sees it (see `#onAbort`).
    const pump = this;
    forwarding.abort.follow({
      abort() {
        pump.#onAbort();
      },
    });
    sink.attachSource(this);
    this.#scheduleLook();
  }

  /**
   * The reader's promise is the provider's read with one `then`: no promise of the pump's own per
   * read (measured: a second promise per delta was a quarter of delivering one). A read in flight
   * is answered when the provider's read settles, also when the run ends meanwhile: its
   * cancellation aborts the request, and the run's `completed` waits for the same read anyway.
   */
  readForReader(reader: DirectReader<RunStreamEvent>): Promise<IteratorResult<RunStreamEvent, undefined>> | undefined {
    if (this.#reading || this.#readingAhead || this.#over) return undefined;
    this.#readerRead = true;
    this.#scheduleLook();
    this.#reader = reader;
    return this.#next().then(this.#onReaderRead, this.#onReaderReadFailed);
  }

  /** Reads and observes one event; undefined once the stream is over. */
  #read(): Promise<RunStreamEvent | undefined> {
    return this.#next().then(
      (result) => this.#settle(result),
      (error: unknown) => void this.#fail(error),
    );
  }

  /** Asks the stream for its next event. */
  #next(): Promise<IteratorResult<ModelStreamEvent>> {
    this.#reading = true;
    this.#forwarding!.watchdog?.waiting();
    try {
      return this.#iterator!.next();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** What a read brought: the event, observed (undefined once the stream has ended). */
  #settle(result: IteratorResult<ModelStreamEvent>): RunStreamEvent | undefined {
    this.#reading = false;
    if (!this.#readingAhead) this.#scheduleLook();
    if (result.done === true) {
      this.#end(false);
      return undefined;
    }
    const forwarding = this.#forwarding!;
    forwarding.watchdog?.busy();
    const event = this.#observer!.observe(result.value);
    if (forwarding.abort.aborted) this.#end(true); // the run was interrupted: this event is the last
    return event;
  }

  /** The stream failed: the call fails with its error (the reader sees what the run makes of it). */
  #fail(error: unknown): void {
    this.#reading = false;
    this.#over = true;
    this.#stopLooking();
    this.#letGo();
    this.#reject(error);
  }

  /**
   * The pump is over: it leaves the channel and lets go of the call. Something already garbage may
   * still reach a finished pump (its last read's handlers, the abort's followers); once that garbage
   * sits in the old generation, every minor GC until the next major one kept whatever the pump
   * reached, and promoted it (measured in apps/bench: 1.7 MB promoted per minor GC of streamed runs,
   * 0.3 MB once the pump lets go, as for plain runs).
   */
  #letGo(): void {
    this.#sink!.detachSource(this);
    this.#iterator = undefined;
    this.#forwarding = undefined;
    this.#sink = undefined;
    this.#observer = undefined;
  }

  /** A pending look is withdrawn: it must not keep a finished run alive until the event loop turns. */
  #stopLooking(): void {
    if (this.#lookScheduled) EventLoopTurnLooks.cancel(this);
  }

  /** Nobody read since the last look: read ahead into the buffer until the reader catches up. */
  async #readAhead(): Promise<void> {
    this.#readingAhead = true;
    // Its own reference: the event of a read that ended the stream still goes to the buffer after the pump let go.
    const sink = this.#sink!;
    try {
      while (!this.#over) {
        const event = await this.#read();
        if (event === undefined) return;
        const readerCaughtUp = sink.readerWaiting;
        while (!sink.tryOffer(event)) await sink.whenWritable();
        if (readerCaughtUp) return;
      }
    } finally {
      this.#readingAhead = false;
      this.#scheduleLook();
    }
  }

  /**
   * After this turn of the event loop: a reader that has not read since gets the read-ahead loop.
   * Looked at only while reads happen (scheduled by each read, and again while the reader reads), so
   * a stream waiting on the network costs no look.
   */
  #scheduleLook(): void {
    if (this.#lookScheduled || this.#over) return;
    this.#lookScheduled = true;
    EventLoopTurnLooks.request(this);
  }

  lookAfterTurn(): void {
    this.#lookScheduled = false;
    if (this.#over || this.#reading || this.#readingAhead) return;
    if (this.#readerRead) {
      this.#readerRead = false;
      this.#scheduleLook();
      return;
    }
    void this.#readAhead();
  }

  /**
   * As a loop always reading the stream would: one read in flight when the run aborts lets the
   * model see the abort its own way (an AbortError, an end), and the call settles when it does;
   * an event it still brings ends the reading (`#settle`).
   */
  #onAbort(): void {
    if (!this.#reading && !this.#readingAhead && !this.#over) void this.#read();
  }

  /** Nothing more is read; an early end closes the stream (`return()`, as leaving a `for await` does). */
  #end(early: boolean): void {
    if (this.#over) return;
    this.#over = true;
    this.#stopLooking();
    const done = this.#observer!.done;
    const iterator = this.#iterator!;
    this.#letGo();
    if (!early || iterator.return === undefined) return this.#resolve(done);
    let closing: Promise<unknown>;
    try {
      closing = Promise.resolve(iterator.return());
    } catch (error) {
      closing = Promise.reject(error);
    }
    closing.then(() => this.#resolve(done), this.#reject);
  }
}

function fromDoneEvent(response: Extract<ModelStreamEvent, { type: 'response_done' }>['response'], preserveRawUsage: boolean): ModelResponse {
  const out: ModelResponse = { usage: new Usage(response.usage), output: response.output, responseId: response.id };
  if (response.requestId !== undefined) out.requestId = response.requestId;
  if (response.providerData !== undefined) out.providerData = response.providerData;
  // A copy, as the reference keeps it: the event the caller reads may be changed afterwards.
  const rawUsage = preserveRawUsage ? rawUsageOf(response) : undefined;
  if (rawUsage !== undefined) out.rawUsage = rawUsage;
  return out;
}

/** The response's raw usage, copied; none when reading it throws (a getter), as the reference. */
function rawUsageOf(response: { readonly rawUsage?: unknown }): Record<string, unknown> | undefined {
  try {
    return snapshotRawUsage(response.rawUsage);
  } catch {
    return undefined;
  }
}
