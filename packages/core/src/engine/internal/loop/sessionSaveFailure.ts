import { REDACTED_DETAILS_MESSAGE } from './finalOutputRedaction.js';

/**
 * A run stopped by its output guardrails still saves the turn to its session; when that save fails,
 * the failure rides on the run's error as its `cause` (as in the reference), not in a log line.
 * When the guardrails withheld a tool output, the save's error may quote that output: the cause is
 * then a bare copy whose message has the output replaced by the placeholder (or, for a structured
 * output, no details at all), with none of the original's fields or causes.
 */
const redactions = new WeakMap<object, (message: string) => string>();

/** `error` surfaces for a withheld output: `redact` removes that output from a message. */
export function noteWithheldOutput(error: object, redact: (message: string) => string): void {
  redactions.set(error, redact);
}

/** Puts the session's save failure on the run's error as its `cause` (redacted when an output was withheld). */
export function attachSessionSaveFailure(error: Error, saveError: unknown): void {
  const redact = redactions.get(error);
  error.cause = redact ? new Error(redact(saveError instanceof Error ? saveError.message : REDACTED_DETAILS_MESSAGE)) : saveError;
}
