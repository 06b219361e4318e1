import type { WorkflowQueue } from '@dbos-inc/dbos-sdk';
import type { SystemDatabase } from '@dbos-inc/dbos-sdk/internal/system_database';

/** What of DBOS's system database the claim uses (internal to DBOS, as is its own claim). */
type ClaimDatabase = Pick<SystemDatabase, 'pool' | 'schemaName' | 'appName'>;

/**
 * Whether `claimQueued` can claim for this queue: one whose only limit is this worker's own
 * (`workerConcurrency`, counted in memory). A limit shared with other workers (global concurrency,
 * rate limits, partitions) needs DBOS's claim, which reads the budget and locks in one transaction.
 */
export function claimsInOneStatement(queue: WorkflowQueue, database: Partial<ClaimDatabase>): boolean {
  const limits = [queue.concurrency, queue.rateLimit, queue.partitionConcurrency, queue.partitionWorkerConcurrency, queue.partitionRateLimit];
  return limits.every((limit) => limit === undefined) && typeof database.pool?.query === 'function' && typeof database.schemaName === 'string';
}

/**
 * DBOS's claim of a queue without shared limits (`SystemDatabase.findAndMarkStartableWorkflows`) as
 * one statement instead of a transaction of five (BEGIN, the latest version, the queued rows, marking
 * them, COMMIT): four round trips less on every run's way to its first step. The same rows are
 * claimed the same way: the oldest of the highest priority, of this application, of this worker's
 * version (or of none while this version is the latest, as DBOS decides), locked `FOR UPDATE SKIP
 * LOCKED` (workers claiming at once take different rows), marked PENDING for this executor with the
 * dispatch's owner, their deadline set from their timeout, their attempts counted. Returns the ids it
 * flipped, in queue order, for `DBOSExecutor.dispatchDequeuedWorkflows`.
 */
export async function claimQueued(database: ClaimDatabase, queue: WorkflowQueue, executorId: string, appVersion: string, room: number, owner: string): Promise<string[]> {
  if (room <= 0) return [];
  const schema = `"${database.schemaName}"`;
  const params: unknown[] = ['ENQUEUED', queue.name, appVersion, 'PENDING', executorId, owner, database.appName ?? null];
  const names = database.appName ? [database.appName] : [];
  // DBOS's `appNameFilter`: rows of this application or of none; every row when it has no name.
  const appScope = names.length === 0 ? 'TRUE' : `(application_name = ANY($${params.push(names)}) OR application_name IS NULL)`;
  const limit = Number.isFinite(room) ? `LIMIT ${Math.floor(room)}` : '';
  const { rows } = await database.pool.query<{ workflow_uuid: string; priority: number; created_at: string }>(
    `WITH latest AS (
       SELECT version_name FROM ${schema}.application_versions WHERE ${appScope} ORDER BY version_timestamp DESC LIMIT 1
     ), picked AS (
       SELECT workflow_uuid FROM ${schema}.workflow_status
        WHERE status = $1 AND queue_name = $2 AND ${appScope}
          AND (application_version = $3 OR (application_version IS NULL AND COALESCE((SELECT version_name FROM latest), $3) = $3))
        ORDER BY priority ASC, created_at ASC ${limit}
        FOR UPDATE SKIP LOCKED
     )
     UPDATE ${schema}.workflow_status AS w
        SET status = $4,
            owner_xid = $6,
            executor_id = $5,
            application_version = $3,
            started_at_epoch_ms = (EXTRACT(epoch FROM now()) * 1000)::bigint,
            rate_limited = FALSE,
            application_name = COALESCE(w.application_name, $7),
            recovery_attempts = w.recovery_attempts + 1,
            updated_at = (EXTRACT(epoch FROM now()) * 1000)::bigint,
            workflow_deadline_epoch_ms = CASE
              WHEN w.workflow_timeout_ms IS NOT NULL AND w.workflow_deadline_epoch_ms IS NULL
              THEN (EXTRACT(epoch FROM now()) * 1000)::bigint + w.workflow_timeout_ms
              ELSE w.workflow_deadline_epoch_ms
            END
      -- An array, not a join: the rows are found by their primary key (a join's plan may scan the table).
      WHERE w.workflow_uuid = ANY(ARRAY(SELECT workflow_uuid FROM picked)) AND w.status = $1
      RETURNING w.workflow_uuid, w.priority, w.created_at`,
    params,
  );
  // In queue order, as DBOS's claim returns them (RETURNING keeps no order).
  return rows.sort((a, b) => a.priority - b.priority || Number(a.created_at) - Number(b.created_at)).map((row) => row.workflow_uuid);
}
