import { DurableRunError } from '../durableRunError.js';

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
  const prefix = `${runId}:resume:`;
  if (!workflowId.startsWith(prefix)) return undefined;
  const revision = Number(workflowId.slice(prefix.length));
  return Number.isInteger(revision) && revision > 0 ? revision : undefined;
}

/** A run id must not contain the separator of the workflow ids made from it. */
export function checkRunId(runId: unknown): string {
  if (typeof runId !== 'string' || runId === '' || runId.includes(':')) {
    throw new DurableRunError('invalid_options', `A durable run id is a non-empty string without ':', got ${JSON.stringify(runId)}.`);
  }
  return runId;
}
