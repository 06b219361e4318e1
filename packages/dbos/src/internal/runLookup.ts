import type { DBOSClient, WorkflowStatus } from '@dbos-inc/dbos-sdk';
import { resumePrefix, revisionOf, runWorkflowId } from './workflowIds.js';

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

/** DBOS matches an id prefix with `LIKE '<prefix>%'`: its own wildcards in the prefix match literally. */
function likePrefix(prefix: string): string {
  return prefix.replace(/[\\%_]/g, (char) => `\\${char}`);
}
