import { DBOS } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import { createEventsTable } from './runEvents.js';
import { createStatusNotifications } from './statusNotifications.js';
import { RUN_WORKFLOW_NAME } from './workflowIds.js';

/**
 * Creates or upgrades DBOS's system tables, Baton's events table and the trigger that announces
 * workflows queued and runs ended (`statusNotifications.ts`), once, whoever calls it: DBOS
 * runs its migrations without a lock, and workers launching together on a fresh database race in
 * them (deadlocks, and sometimes a schema left broken for good). A session-level advisory lock on
 * the server's `postgres` database (which exists before DBOS creates its own) serialises callers;
 * workers then launch with DBOS's own migrations turned off.
 */
export async function migrateOnce(databaseUrl: string): Promise<void> {
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const lock = new pg.Client({ connectionString: admin.toString() });
  await lock.connect();
  try {
    await lock.query("SELECT pg_advisory_lock(hashtext('baton.dbos.migrate'))");
    await DBOS.migrate(databaseUrl);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      await createEventsTable(db);
      await createStatusNotifications(db, RUN_WORKFLOW_NAME);
    } finally {
      await db.end();
    }
  } finally {
    await lock.end(); // ends the session, and with it the lock
  }
}
