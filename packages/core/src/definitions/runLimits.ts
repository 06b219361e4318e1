import { UserError } from '@baton/types';

/**
 * Bounds a run keeps whatever the model does: the model is untrusted, and one response could ask
 * for a thousand tool calls at once, a tool could return hundreds of megabytes that would then sit
 * in history, the run state, events and traces, and a model server could send one event and stall.
 * The defaults are far above what a working application meets; `Infinity` (or `0` for the idle
 * timeout) turns a limit off. A Baton extra: the reference has none of these.
 */
export interface RunLimits {
  /** Tool calls of one model response that run at the same time; the rest wait their turn, in call order. Default 32. */
  maxConcurrentToolCalls?: number;
  /**
   * The largest tool output, in characters of what the model receives (its text, or the JSON of
   * its content parts). A longer one is cut, and a marker saying so ends it. Default 10,000,000.
   */
  maxToolOutputChars?: number;
  /**
   * A streamed model call that sends no event for this long fails with `ModelStreamIdleTimeoutError`
   * and its request is aborted (time the caller spends not reading does not count). Default 600,000
   * (10 minutes: long reasoning can be quiet for minutes); `0` waits for ever.
   */
  modelStreamIdleTimeoutMs?: number;
}

export const DEFAULT_RUN_LIMITS: Required<RunLimits> = {
  maxConcurrentToolCalls: 32,
  maxToolOutputChars: 10_000_000,
  modelStreamIdleTimeoutMs: 600_000,
};

/** The limits in force: the runner's, then the run's, over the defaults; a bad value is a `UserError` naming it. */
export function resolveRunLimits(...layers: (RunLimits | undefined)[]): Required<RunLimits> {
  const limits = { ...DEFAULT_RUN_LIMITS };
  for (const layer of layers) {
    if (layer === undefined) continue;
    if (typeof layer !== 'object' || layer === null) throw new UserError(`limits must be an object, got ${layer === null ? 'null' : typeof layer}.`);
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      if (!(key in DEFAULT_RUN_LIMITS)) {
        throw new UserError(`limits.${key} is not a run limit (known: ${Object.keys(DEFAULT_RUN_LIMITS).join(', ')}).`);
      }
      const floor = key === 'modelStreamIdleTimeoutMs' ? 0 : 1;
      if (typeof value !== 'number' || Number.isNaN(value) || value < floor || (Number.isFinite(value) && !Number.isInteger(value))) {
        throw new UserError(`limits.${key} must be a whole number of at least ${floor} (or Infinity), got ${String(value)}.`);
      }
      limits[key as keyof RunLimits] = value;
    }
  }
  return limits;
}
