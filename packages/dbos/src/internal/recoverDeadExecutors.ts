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
  const pending = await client.listWorkflows({ status: 'PENDING', applicationVersion: scope.applicationVersion, loadInput: false, loadOutput: false });
  const byExecutor = new Map<string, string[]>();
  for (const workflow of pending) {
    const executor = workflow.executorId;
    if (executor === undefined || executor === scope.self) continue;
    byExecutor.set(executor, [...(byExecutor.get(executor) ?? []), workflow.workflowID]);
  }
  const recovered: string[] = [];
  for (const [executor, ids] of byExecutor) {
    await ExecutorLock.whileDead(scope.databaseUrl, executorLockKey(scope.appName, executor), async () => {
      for (const id of ids) {
        await client.resumeWorkflow(id, { queueName: scope.queueName });
        recovered.push(id);
      }
    });
  }
  return recovered;
}
