import { ModelTimeoutError, UserError, type ModelSettings } from '@baton/types';
import type { LazyAbort } from '../lazyAbort.js';

/** The longest timer Node keeps (2^31 - 1 ms), as the reference bounds \`timeoutMs\`. */
const MAX_MODEL_TIMEOUT_MS = 2_147_483_647;

/** \`modelSettings.timeoutMs\`, checked; undefined when none is set. */
export function modelTimeoutMs(settings: ModelSettings | undefined): number | undefined {
  const timeoutMs: unknown = settings?.timeoutMs;
  if (timeoutMs === undefined) return undefined;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_MODEL_TIMEOUT_MS) {
    throw new UserError(`modelSettings.timeoutMs must be a positive finite number less than or equal to ${MAX_MODEL_TIMEOUT_MS} when provided.`);
  }
  return timeoutMs;
}

/**
 * One model call attempt's \`modelSettings.timeoutMs\`, timed by the run for every model, as the
 * reference times it: from the attempt's start until its answer (a stream's \`response_done\`,
 * \`stop\`). When it passes, the request is aborted with a \`ModelTimeoutError\`, and the attempt fails
 * with that error however the provider then ends it (a provider's own error becomes its \`cause\`;
 * an answer that comes anyway is not taken).
 */
export class AttemptTimeout {
  readonly #timeoutMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #fired: ModelTimeoutError | undefined;

  constructor(timeoutMs: number, abort: LazyAbort) {
    this.#timeoutMs = timeoutMs;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#fired = new ModelTimeoutError({ timeoutMs });
      abort.abort(this.#fired);
    }, timeoutMs);
  }

  /** The attempt answered (or ended): the timer no longer runs. */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The attempt's outcome, once it settles: a timed-out attempt fails with the timeout. */
  settle<A>(attempt: Promise<A>): Promise<A> {
    return attempt.then(
      (value) => {
        this.stop();
        if (this.#fired !== undefined) throw this.#fired;
        return value;
      },
      (error: unknown) => {
        this.stop();
        if (this.#fired === undefined || error === this.#fired) throw error;
        throw new ModelTimeoutError({ timeoutMs: this.#timeoutMs, cause: error });
      },
    );
  }
}

/** Runs one attempt, timed when \`timeoutMs\` is set (\`run\` is handed the timer, to stop it at a stream's answer). */
export function timedAttempt<A>(timeoutMs: number | undefined, abort: LazyAbort, run: (timeout: AttemptTimeout | undefined) => Promise<A>): Promise<A> {
  if (timeoutMs === undefined) return run(undefined);
  const timeout = new AttemptTimeout(timeoutMs, abort);
  let attempt: Promise<A>;
  try {
    attempt = run(timeout);
  } catch (error) {
    attempt = Promise.reject(error);
  }
  return timeout.settle(attempt);
}
