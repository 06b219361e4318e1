import pg from 'pg';

/**
 * A worker's proof of life: a session advisory lock named after its executor id, held on a
 * connection of its own for as long as the worker lives. When the process dies (even by kill -9) the
 * server closes the session and the lock is free within moments, so another worker that can take the
 * lock knows the executor is gone, without clocks or heartbeats. (Through a transaction-pooling
 * proxy such as PgBouncer, session locks do not work: connect the workers to PostgreSQL directly.)
 */
export function executorLockKey(appName: string, executorId: string): string {
  return `baton.dbos.executor:${appName}:${executorId}`;
}

export class ExecutorLock {
  private constructor(private readonly client: pg.Client) {}

  /** Takes the lock, waiting up to `waitMs` for a supervisor that holds it while it recovers a dead executor's runs. */
  static async acquire(databaseUrl: string, key: string, waitMs = 10_000): Promise<ExecutorLock | undefined> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [key]);
      if (rows[0]?.ok) return new ExecutorLock(client);
      if (Date.now() >= deadline) {
        await client.end();
        return undefined;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Whether the lock of `key` is free, that is, its executor is dead; if so, hold it while `recover` runs. */
  static async whileDead(databaseUrl: string, key: string, recover: () => Promise<void>): Promise<boolean> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [key]);
      if (!rows[0]?.ok) return false;
      await recover();
      return true;
    } finally {
      await client.end();
    }
  }

  async release(): Promise<void> {
    await this.client.end();
  }
}
