import type { DBOSClient, WorkflowStatus } from '@dbos-inc/dbos-sdk';
import { resumePrefix, revisionOf, runWorkflowId } from './workflowIds.js';
import type { RunWorkflowInput, RunWorkflowOutput } from './workflowTypes.js';

export interface RunWorkflow {
  readonly revision: number;
  readonly workflow: WorkflowStatus;
}

/** What a read of a run's workflow brings back besides its status and output. */
export interface ReadOptions {
  /**
   * Its input too: only a decision needs it (the run's agent and settings; what a racing decision
   * sent). A status read leaves it out: a resume's input holds the whole paused state.
   */
  readonly input: boolean;
}

/**
 * The run's latest workflow (its highest revision), by exact ids, in one read for a run that never
 * paused: a resume exists only once the workflow before it ended paused, so while the first workflow
 * is queued or running, or once it completed or failed, it is the latest. Only a run whose first
 * workflow paused lists its resume workflows (ids only) and reads the latest of them. Another run
 * whose id starts the same way (`order-1`, `order-10`) is never loaded.
 */
export async function latestRunWorkflow(dbos: DBOSClient, runId: string, read: ReadOptions): Promise<RunWorkflow | undefined> {
  const first = await readWorkflow(dbos, runId, read);
  if (first === undefined || !endedPaused(first)) return first === undefined ? undefined : { revision: 0, workflow: first };
  const resumes = await dbos.listWorkflows({ workflow_id_prefix: likePrefix(resumePrefix(runId)), loadInput: false, loadOutput: false });
  let revision = 0;
  for (const { workflowID } of resumes) revision = Math.max(revision, revisionOf(runId, workflowID) ?? 0);
  if (revision === 0) return { revision, workflow: first };
  const workflow = await readWorkflow(dbos, runWorkflowId(runId, revision), read);
  return workflow === undefined ? undefined : { revision, workflow };
}

/**
 * The workflow of revision `revision` of the run, re-read by its id (one read): while it is queued
 * or running, no later revision can exist, so a waiter reads just this one until it ends.
 */
export async function runWorkflowAt(dbos: DBOSClient, runId: string, revision: number, read: ReadOptions): Promise<RunWorkflow | undefined> {
  const workflow = await readWorkflow(dbos, runWorkflowId(runId, revision), read);
  return workflow === undefined ? undefined : { revision, workflow };
}

/** One workflow by its exact id, in one statement; without its input unless asked. */
async function readWorkflow(dbos: DBOSClient, workflowID: string, read: ReadOptions): Promise<WorkflowStatus | undefined> {
  if (read.input) return dbos.getWorkflow(workflowID);
  const found = await dbos.listWorkflows({ workflowIDs: [workflowID], loadInput: false });
  return found.find((workflow) => workflow.workflowID === workflowID);
}

function endedPaused(workflow: WorkflowStatus): boolean {
  return workflow.status === 'SUCCESS' && (workflow.output as RunWorkflowOutput | undefined)?.status === 'paused';
}

/** Every workflow of the run (its start, resumes and expiry timers), ids and statuses only. */
export async function runWorkflows(dbos: DBOSClient, runId: string): Promise<WorkflowStatus[]> {
  const [first, rest] = await Promise.all([
    dbos.listWorkflows({ workflowIDs: [runId], loadInput: false, loadOutput: false }),
    // Run ids have no ':', so every id under `{runId}:` is one of this run's.
    dbos.listWorkflows({ workflow_id_prefix: likePrefix(`${runId}:`), loadInput: false, loadOutput: false }),
  ]);
  return [...first.filter((workflow) => workflow.workflowID === runId), ...rest];
}

/** The run's incarnation (see `RunWorkflowInput.incarnation`), or undefined when no run has this id. */
export async function runIncarnation(dbos: DBOSClient, runId: string): Promise<string | undefined> {
  const first = await dbos.getWorkflow(runId);
  if (first === undefined) return undefined;
  return (first.input?.[0] as RunWorkflowInput | undefined)?.incarnation ?? '';
}

/** DBOS matches an id prefix with `LIKE '<prefix>%'`: its own wildcards in the prefix match literally. */
function likePrefix(prefix: string): string {
  return prefix.replace(/[\\%_]/g, (char) => `\\${char}`);
}
