import type { SqliteDatabase } from './drivers.js';

/** The default wait for another connection's write lock. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Sets how long the connection waits for another one's write lock (`busy_timeout`; default 5000 ms). */
export function setBusyTimeout(db: SqliteDatabase, busyTimeoutMs: number | undefined): void {
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))}`);
}

/**
 * Runs `work` in a `BEGIN IMMEDIATE` transaction: the write lock is taken first, so writers in
 * several processes sharing the file run one after another, and a throw rolls everything back.
 */
export function immediate<T>(db: SqliteDatabase, work: () => T): T {
  return db.transaction(work).immediate() as T;
}
