import { UserError } from './errors.js';

/**
 * A compaction item the model returned without its encrypted payload (a provider's conversion or
 * the run loop finds it): a `UserError`, named as the reference names it. A streamed run that fails
 * with it keeps nothing of its input in its session (the input may be what the malformed compaction
 * was meant to replace), as the reference's. Internal, as on the reference (not in its exports).
 */
export class CompactionItemValidationError extends UserError {
  // The base class types its tag as one of its own names; this class's tag is its own name.
  declare readonly _tag: any;
}
