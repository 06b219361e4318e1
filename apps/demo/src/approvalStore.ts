import Database from 'better-sqlite3';
import { SqliteRunStateStore } from '@baton/hitl-state';

/** The paused-run store both processes open: one SQLite file. */
export async function openApprovalStore(file: string): Promise<{ store: SqliteRunStateStore; close(): void }> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const store = new SqliteRunStateStore(db);
  await store.init();
  return { store, close: () => db.close() };
}
