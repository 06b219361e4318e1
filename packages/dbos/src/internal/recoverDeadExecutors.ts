import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import { ExecutorLock, executorLockKey } from './executorLock.js';

export interface RecoveryScope {
  readonly databaseUrl: string;
  readonly appName: string;
  readonly applicationVersion: string;
  readonly self: string;
  readonly queueName: string;
}

/**
 * Hands the runs of dead workers to the live ones. Open-source DBOS recovers an executor's
 * workflows only when a process with the same executor id starts again; a worker that is gone for
 * good would leave its runs pending forever. So: find pending workflows of this application version
 * owned by other executors, and for each executor whose lock is free (its process is dead) put its
 * workflows back on the queue while holding that lock (so one supervisor does it, and a restarting
 * executor waits). Workers of this version then replay them from their committed steps. Returns the
 * ids put back.
 */
export async function recoverDeadExecutors(client: DBOSClient, scope: RecoveryScope): Promise<string[]> {
  const pendingOf = (executorId?: string) =>
    client.listWorkflows({ status: 'PENDING', applicationVersion: scope.applicationVersion, ...(executorId === undefined ? {} : { executorId }), loadInput: false, loadOutput: false });
  const executors = new Set((await pendingOf()).map((workflow) => workflow.executorId).filter((id): id is string => id !== undefined && id !== scope.self));
  const recovered: string[] = [];
  for (const executor of executors) {
    await ExecutorLock.whileDead(scope.databaseUrl, executorLockKey(scope.appName, executor), async () => {
      // Listed again under the lock: another supervisor may have handed these runs on already, and
      // a run another worker now holds must not be put back on the queue.
      for (const workflow of await pendingOf(executor)) {
        // Back on the queue it came from (an approval timer on the timers' queue, not in a run's slot).
        await client.resumeWorkflow(workflow.workflowID, { queueName: workflow.queueName ?? scope.queueName });
        recovered.push(workflow.workflowID);
      }
    });
  }
  return recovered;
}
