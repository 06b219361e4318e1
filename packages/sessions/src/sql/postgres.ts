import type { PostgresPool, PostgresQueryable } from './drivers.js';

/**
 * Runs `work` on one client of the pool between `BEGIN` and `COMMIT`; a throw rolls back. The client
 * goes back to the pool either way (discarded when even the rollback failed).
 */
export async function inTransaction<T>(pool: PostgresPool, work: (client: PostgresQueryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
      client.release();
    } catch (rollbackError) {
      client.release(rollbackError instanceof Error ? rollbackError : true);
    }
    throw error;
  }
}

/**
 * Serializes, until the transaction ends, every transaction that takes the same lock: first-time
 * setups (`CREATE TABLE IF NOT EXISTS` races on the catalog), or writers to one key of a table.
 */
export async function lockTransaction(client: PostgresQueryable, name: string, key?: string): Promise<void> {
  if (key === undefined) await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [name]);
  else await client.query(`SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))`, [name, key]);
}
