import { UserError } from '@baton/types';

/**
 * Why a request about a durable run was refused:
 * - `invalid_run_id`: the run id is malformed (empty, too long, a `:` or a character outside
 *   ASCII letters, digits and `- _ . @ + = ~`): refused before the database is asked
 * - `unknown_run`: no run has this id
 * - `unknown_call`: the run has no pending approval for this call id (the pending ones are listed)
 * - `not_paused`: the run is queued, running, completed or failed, so there is nothing to decide
 * - `already_decided`: another decision for this pause was taken first (racing approvers)
 * - `expired`: the approval request expired before the decision
 * - `invalid_options`: a worker or client option is missing or wrong (an empty decision, a version
 *   no worker registered)
 * - `unknown_agent`: the run names an agent this worker did not register
 * - `unavailable`: the database cannot be reached (or the client was closed)
 * - `timed_out`: `result()` gave up waiting (the message says whether the run waits for a worker)
 */
export type DurableRunErrorReason =
  | 'invalid_run_id'
  | 'unknown_run'
  | 'unknown_call'
  | 'not_paused'
  | 'already_decided'
  | 'expired'
  | 'invalid_options'
  | 'unknown_agent'
  | 'unavailable'
  | 'timed_out';

/** A request about a durable run that cannot be carried out; the message names the run and what is wrong. */
export class DurableRunError extends UserError {
  readonly reason: DurableRunErrorReason;
  readonly runId: string | undefined;

  constructor(reason: DurableRunErrorReason, message: string, runId?: string) {
    super(message);
    this.name = 'DurableRunError';
    this.reason = reason;
    this.runId = runId;
  }
}
