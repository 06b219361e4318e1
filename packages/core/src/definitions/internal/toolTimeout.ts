import { ToolTimeoutError, UserError, type RunContextContract, type ToolCallDetails } from '@baton/types';

/** What a function tool does when a call outlasts `timeoutMs`: answer the model, or fail the call. */
export type ToolTimeoutBehavior = 'error_as_result' | 'raise_exception';

/** Turns a timed-out call into the output the model sees instead (`error_as_result`). */
export type ToolTimeoutErrorFunction<TContext = unknown> = (
  context: RunContextContract<TContext>,
  error: ToolTimeoutError,
  details?: ToolCallDetails,
) => unknown;

export interface ToolTimeout<TContext = unknown> {
  readonly timeoutMs: number;
  readonly timeoutBehavior: ToolTimeoutBehavior;
  readonly timeoutErrorFunction: ToolTimeoutErrorFunction<TContext> | undefined;
}

const BEHAVIORS: readonly ToolTimeoutBehavior[] = ['error_as_result', 'raise_exception'];
/** The longest delay a timer can wait (2^31 - 1 ms). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** Checks a tool's timeout options, in the reference's words; undefined when the tool has no timeout. */
export function toolTimeoutOf<TContext>(
  toolName: string,
  options: { timeoutMs?: unknown; timeoutBehavior?: unknown; timeoutErrorFunction?: unknown },
): ToolTimeout<TContext> | undefined {
  const { timeoutMs, timeoutBehavior, timeoutErrorFunction } = options;
  if (timeoutMs !== undefined) {
    if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs)) throw new UserError(`Function tool '${toolName}' timeoutMs must be a finite number in milliseconds.`);
    if (!Number.isFinite(timeoutMs)) throw new UserError(`Function tool '${toolName}' timeoutMs must be finite.`);
    if (timeoutMs <= 0) throw new UserError(`Function tool '${toolName}' timeoutMs must be greater than 0.`);
    if (timeoutMs > MAX_TIMEOUT_MS) throw new UserError(`Function tool '${toolName}' timeoutMs must be less than or equal to ${MAX_TIMEOUT_MS}.`);
  }
  const behavior = timeoutBehavior ?? 'error_as_result';
  if (!BEHAVIORS.includes(behavior as ToolTimeoutBehavior)) {
    throw new UserError(`Function tool '${toolName}' timeoutBehavior must be one of: ${BEHAVIORS.join(', ')}.`);
  }
  if (timeoutErrorFunction !== undefined && typeof timeoutErrorFunction !== 'function') {
    throw new UserError(`Function tool '${toolName}' timeoutErrorFunction must be a function when provided.`);
  }
  if (timeoutMs === undefined) return undefined;
  return {
    timeoutMs: timeoutMs as number,
    timeoutBehavior: behavior as ToolTimeoutBehavior,
    timeoutErrorFunction: timeoutErrorFunction as ToolTimeoutErrorFunction<TContext> | undefined,
  };
}

/**
 * Runs a call with a deadline. The call sees a signal that aborts (with the `ToolTimeoutError`)
 * when the deadline passes or the caller's signal aborts; past the deadline the call's own outcome
 * is ignored, and the timeout becomes the tool's result (`error_as_result`: the error function's
 * answer, or the reference's text) or its error (`raise_exception`). A caller's abort stays the
 * caller's: it is not turned into a timeout.
 */
export async function runWithToolTimeout<TContext>(
  toolName: string,
  timeout: ToolTimeout<TContext>,
  runContext: RunContextContract<TContext>,
  details: ToolCallDetails,
  call: (details: ToolCallDetails) => Promise<unknown>,
): Promise<unknown> {
  const error = new ToolTimeoutError({ toolName, timeoutMs: timeout.timeoutMs });
  const deadline = new AbortController();
  const signal = AbortSignal.any([details.signal, deadline.signal]);
  const timedDetails = withSignal(details, signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(error);
      deadline.abort(error);
    }, timeout.timeoutMs);
  });
  try {
    return await Promise.race([call(timedDetails), expired]);
  } catch (thrown) {
    const timedOut = thrown === error || (deadline.signal.aborted && !details.signal.aborted);
    if (!timedOut) throw thrown;
    if (timeout.timeoutBehavior === 'raise_exception') throw error;
    if (timeout.timeoutErrorFunction) return await timeout.timeoutErrorFunction(runContext, error, details);
    return error.message;
  } finally {
    clearTimeout(timer);
  }
}

/** The same details (with the run's hidden call scope) over another signal. */
function withSignal(details: ToolCallDetails, signal: AbortSignal): ToolCallDetails {
  const descriptors = Object.getOwnPropertyDescriptors(details);
  delete (descriptors as Record<string, unknown>).signal;
  const clone = Object.create(Object.getPrototypeOf(details), descriptors) as ToolCallDetails;
  Object.defineProperty(clone, 'signal', { value: signal, enumerable: true, configurable: true, writable: true });
  return clone;
}
