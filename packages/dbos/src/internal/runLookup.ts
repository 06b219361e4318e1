import type { DBOSClient, WorkflowStatus } from '@dbos-inc/dbos-sdk';
import { resumePrefix, revisionOf, runWorkflowId } from './workflowIds.js';
import type { RunWorkflowInput } from './workflowTypes.js';

export interface RunWorkflow {
  readonly revision: number;
  readonly workflow: WorkflowStatus;
}

/**
 * The run's latest workflow (its highest revision), by exact ids: the listing of its resume
 * workflows loads ids only, and only the latest one is read with its input and output. Another run
 * whose id starts the same way (`order-1`, `order-10`) is never loaded.
 */
export async function latestRunWorkflow(dbos: DBOSClient, runId: string): Promise<RunWorkflow | undefined> {
  const resumes = await dbos.listWorkflows({ workflow_id_prefix: likePrefix(resumePrefix(runId)), loadInput: false, loadOutput: false });
  let revision = 0;
  for (const { workflowID } of resumes) revision = Math.max(revision, revisionOf(runId, workflowID) ?? 0);
  const workflow = await dbos.getWorkflow(runWorkflowId(runId, revision));
  return workflow === undefined ? undefined : { revision, workflow };
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
