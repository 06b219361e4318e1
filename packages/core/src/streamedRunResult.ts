import { Readable } from 'node:stream';
import { Cause, Effect, Exit, Queue, Stream, type Fiber } from 'effect';
import type { RunStreamEvent } from '@baton/types';
import type { Agent } from './agent.js';
import { RunResultBase } from './runResult.js';
import type { RunState } from './runState.js';

/**
 * A streamed run: iterate it (or use `toStream()` / `toTextStream()`) to receive events as they
 * happen. Events pass through a bounded buffer, so a consumer that stops reading pauses the run
 * instead of growing memory; breaking out of the iteration (or cancelling the stream) cancels the
 * run: the model request is aborted and no further turn starts. `completed` settles when the run
 * has finished: it rejects with the run's error, and resolves after a cancel.
 */
export class StreamedRunResult<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>>
  extends RunResultBase<TContext, TAgent>
  implements AsyncIterable<RunStreamEvent>
{
  readonly #queue: Queue.Queue<RunStreamEvent, Cause.Done>;
  readonly #completed: Promise<void>;
  #fiber: Fiber.Fiber<unknown, unknown> | undefined;
  #finished = false;
  #error: unknown = null;
  #cancelled = false;
  #buffered: RunStreamEvent[] = [];

  /** @internal Created by the runner. */
  constructor(
    state: RunState<TContext, TAgent>,
    queue: Queue.Queue<RunStreamEvent, Cause.Done>,
    completion: Promise<{ ok: true } | { ok: false; error: unknown; interrupted: boolean }>,
  ) {
    super(state);
    this.#queue = queue;
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

  /** @internal */
  attach(fiber: Fiber.Fiber<unknown, unknown>): void {
    this.#fiber = fiber;
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
    Effect.runFork(Queue.shutdown(this.#queue));
    this.#fiber?.interruptUnsafe();
  }

  /** The next event, or `undefined` when the stream has ended. */
  async #next(): Promise<RunStreamEvent | undefined> {
    if (this.#buffered.length === 0) {
      const exit = await Effect.runPromiseExit(Queue.takeAll(this.#queue));
      if (Exit.isFailure(exit)) return undefined;
      this.#buffered = exit.value;
    }
    return this.#buffered.shift();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RunStreamEvent> {
    let ended = false;
    try {
      for (let event = await this.#next(); event !== undefined; event = await this.#next()) yield event;
      ended = true;
    } finally {
      if (!ended) this.cancel();
    }
  }

  /** The events as a web `ReadableStream`; cancelling it cancels the run. */
  toStream(): ReadableStream<RunStreamEvent> {
    return new ReadableStream<RunStreamEvent>(
      {
        pull: async (controller) => {
          const event = await this.#next();
          if (event === undefined) controller.close();
          else controller.enqueue(event);
        },
        cancel: () => this.cancel(),
      },
      { highWaterMark: 0 },
    );
  }

  /** The events as an Effect `Stream` (for Effect users); interrupting it cancels the run. */
  toEffectStream(): Stream.Stream<RunStreamEvent> {
    return Stream.fromQueue(this.#queue).pipe(Stream.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Effect.sync(() => this.cancel()))));
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
    if (options.compatibleWithNodeStreams) return Readable.from(deltas());
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
