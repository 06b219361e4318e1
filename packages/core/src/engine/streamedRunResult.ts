import type { Readable } from 'node:stream';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import type * as Stream from 'effect/Stream';
import type * as Fiber from 'effect/Fiber';
import type { RunStreamEvent } from '@baton/types';
import { nodeBuiltin } from '../definitions/internal/nodeBuiltin.js';
import type { Agent } from '../definitions/agent.js';
import { RunResultBase } from './runResult.js';
import type { RunState } from '../state/runState.js';
import { EventChannel } from './internal/eventChannel.js';
import { eitherSignal, followCallerSignal } from './internal/callerSignal.js';

/**
 * `effect/Stream` is a seventh of core's load time and only `toEffectStream` needs it, so it loads
 * when the first streamed run starts (the runner waits for it before handing out the result).
 */
let effectStream: typeof Stream | undefined;
let loadingEffectStream: Promise<void> | undefined;

export function loadEffectStream(): Promise<void> {
  return (loadingEffectStream ??= import('effect/Stream').then((module) => void (effectStream = module)));
}

/** What the runner needs of a result it produces into: its channel, and its run's fiber to interrupt on cancel. */
export let channelOf: (result: StreamedRunResult<any, any>) => EventChannel<RunStreamEvent>;
export let attachRunFiber: (result: StreamedRunResult<any, any>, fiber: Fiber.Fiber<unknown, unknown>) => void;
/** A result whose events pass through a buffer of `capacity` (the runner's backpressure). */
export let createStreamedRunResult: <TContext, TAgent extends Agent<any, any>>(
  options: StreamedRunResultOptions<TContext, TAgent>,
  capacity: number,
) => StreamedRunResult<TContext, TAgent>;

export interface StreamedRunResultOptions<TContext, TAgent extends Agent<any, any>> {
  state?: RunState<TContext, TAgent> | undefined;
  /** Aborting it cancels the stream (as `cancel()` does). */
  signal?: AbortSignal | undefined;
}

let cancelStream: (result: StreamedRunResult<any, any>) => void;

/**
 * A streamed run: iterate it (or use `toStream()` / `toTextStream()`) to receive events as they
 * happen. Events pass through a bounded buffer, so a consumer that stops reading pauses the run
 * instead of growing memory; breaking out of the iteration (or cancelling the stream) cancels the
 * run: the model request is aborted and no further turn starts. `completed` settles when the run
 * has finished: it rejects with the run's error, and resolves after a cancel. A failed run also
 * ends the iteration with its error.
 */
export class StreamedRunResult<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>>
  extends RunResultBase<TContext, TAgent>
  implements AsyncIterable<RunStreamEvent>
{
  /**
   * The number of model turns started so far: the runner writes it when a turn's model request
   * starts (after the max-turns check and blocking input guardrails), so a run stopped before its
   * first request reads 0. A resumed run starts from the turns of its state.
   */
  currentTurn: number;
  #channel: EventChannel<RunStreamEvent>;
  readonly #completed: Promise<void>;
  #resolveCompleted!: () => void;
  #rejectCompleted!: (error: unknown) => void;
  #fiber: Fiber.Fiber<unknown, unknown> | undefined;
  #finished = false;
  #error: unknown = null;
  #hasError = false;
  #cancelled = false;
  #keepQueuedOnError = false;
  /** The caller's `signal`, which cancels the run when it aborts. */
  readonly #callerSignal: AbortSignal | undefined;
  /**
   * Made when `_getAbortSignal` is first read (an `AbortController` and its listener per run were
   * about 1 % of a streamed turn's CPU, for a signal the runner itself never reads).
   */
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;
  #detachAbort: () => void;
  /** The run ended or was cancelled: nothing follows a signal any more. */
  #detached = false;
  #stream: ReadableStream<RunStreamEvent> | undefined;

  static {
    channelOf = (result) => result.#channel;
    attachRunFiber = (result, fiber) => {
      result.#fiber = fiber;
      if (result.#cancelled) fiber.interruptUnsafe();
    };
    createStreamedRunResult = (options, capacity) => {
      const result = new StreamedRunResult(options);
      result.#channel = new EventChannel<RunStreamEvent>(capacity);
      return result;
    };
  }

  /**
   * The runner makes these; a result made directly is fed with `_addItem` and ended with `_done`
   * or `_raiseError` (what the reference SDK's own producers call).
   */
  constructor(options: StreamedRunResultOptions<TContext, TAgent> = {}) {
    super(options.state as RunState<TContext, TAgent>);
    this.currentTurn = options.state?.currentTurn ?? 0;
    this.#channel = new EventChannel<RunStreamEvent>(Number.POSITIVE_INFINITY);
    this.#completed = new Promise<void>((resolve, reject) => {
      this.#resolveCompleted = resolve;
      this.#rejectCompleted = reject;
    });
    // A rejection nobody awaits must not become an unhandled rejection.
    this.#completed.catch(() => undefined);
    this.#callerSignal = options.signal;
    this.#detachAbort = options.signal !== undefined ? followCallerSignal(options.signal, this, cancelStream) : NOTHING_TO_DETACH;
    void loadEffectStream();
  }

  get completed(): Promise<void> {
    return this.#completed;
  }

  /**
   * Settles when the run's background work has ended (its fiber, and the session write after it),
   * whether the run finished, failed or was cancelled; it never rejects (`completed` carries the
   * error). The reference's name, for code that waits on the loop rather than on the outcome.
   */
  _getStreamLoopPromise(): Promise<void> {
    return this.#completed.then(
      () => undefined,
      () => undefined,
    );
  }

  /** The run's error, or `null`. */
  get error(): unknown {
    return this.#error;
  }

  get cancelled(): boolean {
    return this.#cancelled;
  }

  get currentAgent(): TAgent {
    return this.state.currentAgent;
  }

  get maxTurns(): number | null {
    return this.state.maxTurns;
  }

  /** Hidden until the run has finished (and its output guardrails passed). */
  override get finalOutput() {
    return this.#finished ? super.finalOutput : undefined;
  }

  /** Stops the run: aborts the model request and tools in flight; no further turn starts. */
  cancel(): void {
    if (this.#cancelled) return;
    if (this.#controller?.signal.aborted === false) this.#controller.abort();
    this.#cancelStream();
  }

  /** Queues an event for the reader (dropped once the stream was cancelled or ended). */
  _addItem(event: RunStreamEvent): void {
    this.#channel.tryOffer(event);
  }

  /** From now on an error ends the stream after the events already queued, not instead of them. */
  _preserveQueuedItemsOnError(): void {
    this.#keepQueuedOnError = true;
  }

  /** The run ended: the reader drains the queue, then sees the end; `completed` resolves. */
  _done(): void {
    this.#finished = true;
    this.#channel.close();
    this.#detach();
    this.#resolveCompleted();
  }

  /**
   * The run failed: the reader sees the error (after the queued events with `preserveQueuedItems`),
   * `completed` rejects with it. Only the first error counts; later ones (cleanup failing after
   * the run's own error) do not replace it.
   */
  _raiseError(error: unknown, options: { preserveQueuedItems?: boolean } = {}): void {
    this.#finished = true;
    if (!this.#cancelled) this.#channel.fail(error, options.preserveQueuedItems === true || this.#keepQueuedOnError);
    if (!this.#hasError) {
      this.#hasError = true;
      this.#error = error;
      this.#rejectCompleted(error);
    }
    this.#detach();
  }

  /** Aborted when the stream is cancelled (by `cancel()`, the reader, or the caller's signal). */
  _getAbortSignal(): AbortSignal {
    if (this.#signal === undefined) {
      const controller = (this.#controller = new AbortController());
      if (this.#cancelled) controller.abort();
      const signal = (this.#signal = this.#callerSignal !== undefined ? eitherSignal(this.#callerSignal, controller.signal) : controller.signal);
      // While the run goes on, the signal it hands out cancels it too (one listener, removed when the run ends).
      if (!this.#detached) {
        const stopFollowing = followCallerSignal(signal, this, cancelStream);
        const detachCaller = this.#detachAbort;
        this.#detachAbort = () => {
          detachCaller();
          stopFollowing();
        };
      }
    }
    return this.#signal;
  }

  #detach(): void {
    this.#detached = true;
    this.#detachAbort();
    this.#detachAbort = NOTHING_TO_DETACH;
  }

  #cancelStream(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#channel.discard();
    this.#fiber?.interruptUnsafe();
    this.#detach();
  }

  static {
    cancelStream = (result) => result.#cancelStream();
  }

  /** Iterating consumes the events; leaving the loop early (break, throw) cancels the run. */
  [Symbol.asyncIterator](): AsyncIterator<RunStreamEvent, undefined> {
    return {
      next: () => this.#channel.take(),
      return: async () => {
        this.cancel();
        return { done: true, value: undefined };
      },
    };
  }

  /** The events as a web `ReadableStream`; cancelling it cancels the run. */
  toStream(): ReadableStream<RunStreamEvent> {
    return (this.#stream ??= new ReadableStream<RunStreamEvent>(
      {
        pull: async (controller) => {
          const next = await this.#channel.take();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: () => this.cancel(),
      },
      { highWaterMark: 0 },
    ));
  }

  /** The events as an Effect `Stream` (for Effect users); interrupting it cancels the run. */
  toEffectStream(): Stream.Stream<RunStreamEvent> {
    const Stream = effectStream;
    if (Stream === undefined) throw new Error('effect/Stream is not loaded: a StreamedRunResult comes from runner.run(..., { stream: true }).');
    return Stream.fromAsyncIterable(this, (error) => error as never).pipe(
      Stream.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Effect.sync(() => this.cancel()))),
    );
  }

  /** Only the output text deltas, as a web stream or (optionally) a Node `Readable`. */
  toTextStream(): ReadableStream<string>;
  toTextStream(options: { compatibleWithNodeStreams: true }): Readable;
  toTextStream(options: { compatibleWithNodeStreams?: boolean }): ReadableStream<string> | Readable;
  toTextStream(options: { compatibleWithNodeStreams?: boolean } = {}): ReadableStream<string> | Readable {
    if (options.compatibleWithNodeStreams) return nodeBuiltin<typeof import('node:stream')>('node:stream', 'toTextStream({ compatibleWithNodeStreams: true })').Readable.from(textDeltas(this));
    const iterator = textDeltas(this);
    return new ReadableStream<string>({
      pull: async (controller) => {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: async () => {
        await iterator.return();
      },
    });
  }
}

/**
 * The text deltas of a run's events. Not an async generator: a generator's `return()` waits for a
 * read in flight (the model still thinking), so closing the text stream would not cancel the run
 * until the model sent something; this `return()` cancels it at once, and the read ends with it.
 */
function textDeltas(result: StreamedRunResult<any, any>): AsyncIterableIterator<string> & { return(): Promise<IteratorResult<string, undefined>> } {
  const events = result[Symbol.asyncIterator]();
  return {
    async next(): Promise<IteratorResult<string, undefined>> {
      for (;;) {
        const next = await events.next();
        if (next.done === true) return { done: true, value: undefined };
        const event = next.value;
        if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') return { done: false, value: event.data.delta };
      }
    },
    async return(): Promise<IteratorResult<string, undefined>> {
      await events.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

const NOTHING_TO_DETACH = (): void => undefined;
