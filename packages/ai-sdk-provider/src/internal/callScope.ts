import { UserError, type ModelSettings } from '@baton/types';

/**
 * The life of one model call: the `abortSignal` handed to the language model fires when
 * `request.signal` fires, when `modelSettings.timeoutMs` passes without progress, or when the
 * adapter itself gives up on the call (a stream consumer that stopped reading). Every wait is raced
 * against that signal, so a language model that ignores its `abortSignal` still cannot hold a
 * cancelled run.
 */
export class CallScope {
  readonly #controller = new AbortController();
  readonly #requestSignal: AbortSignal | undefined;
  readonly #timeoutMs: number | undefined;
  readonly #onRequestAbort = () => this.#controller.abort(this.#requestSignal?.reason);
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timedOutAfterMs: number | undefined;

  constructor(requestSignal: AbortSignal | undefined, settings: ModelSettings) {
    this.#requestSignal = requestSignal;
    this.#timeoutMs = resolveTimeout(settings);
    if (requestSignal?.aborted) this.#onRequestAbort();
    else requestSignal?.addEventListener('abort', this.#onRequestAbort, { once: true });
  }

  /** The signal for the language model's `abortSignal`. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Set once the attempt's timer fired. */
  get timedOutAfterMs(): number | undefined {
    return this.#timedOutAfterMs;
  }

  /** Waits for `promise`, or rejects as soon as the call is aborted (or times out: the timer restarts for each wait). */
  wait<T>(promise: PromiseLike<T>): Promise<T> {
    this.#arm();
    const signal = this.#controller.signal;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(abortReason(signal));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    }).finally(() => this.#disarm());
  }

  /** Aborts the language model's request (closes its HTTP connection). */
  abort(): void {
    this.#controller.abort(new DOMException('The model call was closed.', 'AbortError'));
  }

  dispose(): void {
    this.#disarm();
    this.#requestSignal?.removeEventListener('abort', this.#onRequestAbort);
  }

  #arm(): void {
    this.#disarm();
    const timeoutMs = this.#timeoutMs;
    if (timeoutMs === undefined) return;
    this.#timer = setTimeout(() => {
      this.#timedOutAfterMs = timeoutMs;
      this.#controller.abort(new DOMException(`The model call timed out after ${timeoutMs}ms.`, 'TimeoutError'));
    }, timeoutMs);
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The model call was aborted.', 'AbortError');
}

/** `modelSettings.timeoutMs`, checked: a positive number of milliseconds that fits a timer. */
function resolveTimeout(settings: ModelSettings): number | undefined {
  const { timeoutMs } = settings;
  if (timeoutMs === undefined) return undefined;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 2_147_483_647) {
    throw new UserError(`modelSettings.timeoutMs must be a number of milliseconds > 0 and <= 2147483647, got ${String(timeoutMs)}.`);
  }
  return timeoutMs;
}
