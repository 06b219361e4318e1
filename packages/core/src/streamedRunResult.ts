import type { Readable } from 'node:stream';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import type * as Stream from 'effect/Stream';
import type * as Fiber from 'effect/Fiber';
import type { RunStreamEvent } from '@baton/types';
import { nodeBuiltin } from './internal/nodeBuiltin.js';
import type { Agent } from './agent.js';
import { RunResultBase } from './runResult.js';
import type { RunState } from './runState.js';
import type { EventChannel } from './internal/eventChannel.js';

/**
 * A streamed run: iterate it (or use `toStream()` / `toTextStream()`) to receive events as they
 * happen. Events pass through a bounded buffer, so a consumer that stops reading pauses the run
 * instead of growing memory; breaking out of the iteration (or cancelling the stream) cancels the
 * run: the model request is aborted and no further turn starts. `completed` settles when the run
 * has finished: it rejects with the run's error, and resolves after a cancel.
 */
type Completion = Promise<{ ok: true } | { ok: false; error: unknown; interrupted: boolean }>;

/**
 * `effect/Stream` is a seventh of core's load time and only `toEffectStream` needs it, so it loads
 * when the first streamed run starts (the runner waits for it before handing out the result).
 */
let effectStream: typeof Stream | undefined;
let loadingEffectStream: Promise<void> | undefined;

export function loadEffectStream(): Promise<void> {
  return (loadingEffectStream ??= import('effect/Stream').then((module) => void (effectStream = module)));
}

/** Made by the runner only (the constructor is private): the result of a streamed run it starts. */
export let createStreamedRunResult: <TContext, TAgent extends Agent<any, any>>(
  state: RunState<TContext, TAgent>,
  channel: EventChannel<RunStreamEvent>,
  completion: Completion,
) => StreamedRunResult<TContext, TAgent>;

/** Gives a streamed result the fiber of its run, so cancelling it interrupts the run. */
export let attachRunFiber: (result: StreamedRunResult<any, any>, fiber: Fiber.Fiber<unknown, unknown>) => void;

export class StreamedRunResult<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>>
  extends RunResultBase<TContext, TAgent>
  implements AsyncIterable<RunStreamEvent>
{
  readonly #channel: EventChannel<RunStreamEvent>;
  readonly #completed: Promise<void>;
  #fiber: Fiber.Fiber<unknown, unknown> | undefined;
  #finished = false;
  #error: unknown = null;
  #cancelled = false;

  static {
    createStreamedRunResult = (state, channel, completion) => new StreamedRunResult(state, channel, completion);
    attachRunFiber = (result, fiber) => {
      result.#fiber = fiber;
    };
  }

  private constructor(state: RunState<TContext, TAgent>, channel: EventChannel<RunStreamEvent>, completion: Completion) {
    super(state);
    this.#channel = channel;
    this.#completed = completion.then((outcome) => {
      this.#finished = true;
      if (!outcome.ok && !(outcome.interrupted && this.#cancelled)) {
        this.#error = outcome.error;
        throw outcome.error;
      }
    });
    // A rejection nobody awaits must not become an unhandled rejection.
    this.#completed.catch(() => undefined);
  }

  get completed(): Promise<void> {
    return this.#completed;
  }

  /** The run's error, or `null`. */
  get error(): unknown {
    return this.#error;
  }

  get cancelled(): boolean {
    return this.#cancelled;
  }

  get currentTurn(): number {
    return this.state.currentTurn;
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
    if (this.#finished || this.#cancelled) return;
    this.#cancelled = true;
    this.#channel.discard();
    this.#fiber?.interruptUnsafe();
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
    return new ReadableStream<RunStreamEvent>(
      {
        pull: async (controller) => {
          const next = await this.#channel.take();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: () => this.cancel(),
      },
      { highWaterMark: 0 },
    );
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
    const self = this;
    async function* deltas(): AsyncGenerator<string> {
      for await (const event of self) {
        if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') yield event.data.delta;
      }
    }
    if (options.compatibleWithNodeStreams) return nodeBuiltin<typeof import('node:stream')>('node:stream', 'toTextStream({ compatibleWithNodeStreams: true })').Readable.from(deltas());
    const iterator = deltas();
    return new ReadableStream<string>({
      pull: async (controller) => {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: async () => {
        await iterator.return(undefined);
      },
    });
  }
}
