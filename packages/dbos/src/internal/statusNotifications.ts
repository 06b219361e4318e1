import type pg from 'pg';
import { EVENTS_SCHEMA } from './runEvents.js';

/** Notified with the queue's name whenever a workflow is put on a queue (enqueued, resumed, recovered): idle workers claim it at once. */
export const QUEUED_CHANNEL = 'baton_dbos_queued';
/** Notified with the run id whenever a workflow of a run ends (paused, completed, failed, cancelled): `result()` and followers read it at once. */
export const RUN_ENDED_CHANNEL = 'baton_dbos_run_ended';

const TERMINAL = `('SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED')`;

/**
 * A trigger on DBOS's `workflow_status` that turns its status changes into notifications, sent when
 * the change commits: a workflow put on a queue, by whatever path (DBOS's client, a resume, a
 * recovery, a timer starting a run), and a run's workflow that ended. DBOS itself only polls: its
 * queues every `minPollingIntervalMs`, its result waiters every few hundred ms. The function is
 * replaced on every migration; the trigger is created once (creating it locks the table briefly).
 * A run id has no `:` in it, so the part of a workflow id before the first `:` is its run.
 */
export async function createStatusNotifications(client: pg.ClientBase, workflowName: string, dbosSchema = 'dbos'): Promise<void> {
  await client.query(`CREATE OR REPLACE FUNCTION ${EVENTS_SCHEMA}.notify_workflow_status() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.status = 'ENQUEUED' AND NEW.queue_name IS NOT NULL THEN
      PERFORM pg_notify('${QUEUED_CHANNEL}', NEW.queue_name);
    ELSIF NEW.status IN ${TERMINAL} AND NEW.name = '${workflowName}' THEN
      PERFORM pg_notify('${RUN_ENDED_CHANNEL}', split_part(NEW.workflow_uuid, ':', 1));
    END IF;
    RETURN NULL;
  END $$`);
  await client.query(`DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'baton_notify_workflow_status' AND tgrelid = '"${dbosSchema}".workflow_status'::regclass) THEN
      CREATE TRIGGER baton_notify_workflow_status AFTER INSERT OR UPDATE OF status ON "${dbosSchema}".workflow_status
        FOR EACH ROW WHEN (NEW.status IN ('ENQUEUED', 'SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED'))
        EXECUTE FUNCTION ${EVENTS_SCHEMA}.notify_workflow_status();
    END IF;
  END $$`);
}
