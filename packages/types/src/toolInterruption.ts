import type { RunToolApprovalItem } from './runItem.js';

const BRAND = Symbol.for('@baton/types/ToolInterruption');

/**
 * Returned by a tool that drives a nested run which paused for approval (for example an agent used
 * as a tool). The runner surfaces `interruptions` on the outer run, keeps `resumeState` as its
 * serialized text (`String(resumeState)`, so a run state serializes itself), and calls the tool
 * again with that text as `details.resumeState` once the outer run is resumed.
 */
export class ToolInterruption {
  readonly [BRAND] = true;
  constructor(
    public readonly interruptions: RunToolApprovalItem[],
    public readonly resumeState: unknown,
  ) {}

  /** Recognises interruptions from any copy of this package. */
  static is(value: unknown): value is ToolInterruption {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
