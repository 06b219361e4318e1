import * as Data from 'effect/Data';
import { AgentsError } from '@baton/types';

/**
 * A failure from code Baton does not own (the model, a user callback) that must reach the caller
 * unchanged. Inside the loop it is typed; at the Promise edge it is unwrapped to the original error.
 */
export class ExternalFailure extends Data.TaggedError('ExternalFailure')<{ readonly cause: unknown }> {}

/** Everything a run can fail with inside the loop. */
export type RunFailure = AgentsError | ExternalFailure;

/** The error a Promise user sees. */
export function toPublicError(failure: RunFailure): unknown {
  return failure instanceof ExternalFailure ? failure.cause : failure;
}

export function asRunFailure(error: unknown): RunFailure {
  if (error instanceof AgentsError || error instanceof ExternalFailure) return error;
  return new ExternalFailure({ cause: error });
}
