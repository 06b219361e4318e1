import { DurableRunError } from '../durableRunError.js';

/** The DBOS workflow every run and resume is. */
export const RUN_WORKFLOW_NAME = 'baton.run';

/**
 * A run is a chain of workflows: `{runId}` starts it, `{runId}:resume:{revision}` continues it after
 * a pause (racing resumers start the same id, so it runs once), `{runId}:expire:{revision}` waits out
 * an approval expiry.
 */
export function runWorkflowId(runId: string, revision: number): string {
  return revision === 0 ? runId : `${runId}:resume:${revision}`;
}

export function expiryWorkflowId(runId: string, revision: number): string {
  return `${runId}:expire:${revision}`;
}

/** The revision of a run workflow id of `runId`, or undefined for any other id (another run's, a timer's). */
export function revisionOf(runId: string, workflowId: string): number | undefined {
  if (workflowId === runId) return 0;
  const prefix = resumePrefix(runId);
  if (!workflowId.startsWith(prefix)) return undefined;
  const digits = workflowId.slice(prefix.length);
  const revision = Number(digits);
  return /^[1-9][0-9]*$/.test(digits) && Number.isSafeInteger(revision) ? revision : undefined;
}

/** What every resume workflow id of `runId` starts with. */
export function resumePrefix(runId: string): string {
  return `${runId}:resume:`;
}

/**
 * The longest run id. The id is the payload of the events notification (PostgreSQL's limit is
 * 8000 bytes) and the stem of every workflow id of the run; 200 ASCII characters leave room for both.
 */
export const MAX_RUN_ID_LENGTH = 200;

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._@+=~-]*$/;

/**
 * Why `runId` cannot be a durable run id, or undefined when it can. A run id is 1 to 200 ASCII
 * letters, digits and `- _ . @ + = ~`, starting with a letter or digit: no `:` (the separator of the
 * run's workflow ids, so `r1:resume:1` can never pass for a run of its own), no `%` or spaces, no
 * control characters.
 */
export function runIdProblem(runId: unknown): string | undefined {
  if (typeof runId !== 'string') return `A durable run id is a string, got ${runId === null ? 'null' : typeof runId}.`;
  if (runId === '') return 'A durable run id cannot be empty.';
  if (runId.length > MAX_RUN_ID_LENGTH) return `A durable run id is too long: ${runId.length} characters, at most ${MAX_RUN_ID_LENGTH} (${shown(runId)}).`;
  if (RUN_ID.test(runId)) return undefined;
  const colon = runId.indexOf(':');
  if (colon >= 0) {
    return `A durable run id cannot contain ':' (the separator of the run's workflow ids, {runId}:resume:{n}); ${shown(runId)} has one at position ${colon}.`;
  }
  const at = [...runId].findIndex((char, index) => !/[A-Za-z0-9._@+=~-]/.test(char) || (index === 0 && !/[A-Za-z0-9]/.test(char)));
  const char = [...runId][at] ?? '';
  return `A durable run id uses only ASCII letters, digits and - _ . @ + = ~, and starts with a letter or digit; ${shown(runId)} has the character ${shown(char)} at position ${at}.`;
}

/** `runId`, or a `DurableRunError` (`invalid_run_id`) saying what is wrong with it. */
export function checkRunId(runId: unknown): string {
  const problem = runIdProblem(runId);
  if (problem !== undefined) throw new DurableRunError('invalid_run_id', problem);
  return runId as string;
}

/** A string quoted for a message: at most 40 characters, anything outside printable ASCII escaped. */
function shown(text: string): string {
  const head = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return `"${head.replace(/[^\x20-\x7e…]|["\\]/gu, (char) => (char === '"' || char === '\\' ? `\\${char}` : `\\u{${char.codePointAt(0)!.toString(16)}}`))}"`;
}
