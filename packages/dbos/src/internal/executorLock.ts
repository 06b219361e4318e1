import pg from 'pg';

/**
 * A worker's proof of life: a session advisory lock named after its executor id, held on a
 * connection of its own for as long as the worker lives. When the process dies (even by kill -9) the
 * server closes the session and the lock is free within moments, so another worker that can take the
 * lock knows the executor is gone, without clocks or heartbeats. (Through a transaction-pooling
 * proxy such as PgBouncer, session locks do not work: connect the workers to PostgreSQL directly.)
 *
 * When the database goes away the session ends and the lock with it; the holder takes it again once
 * the database is back. Meanwhile another worker may take over this worker's runs: DBOS fences the
 * old owner's later checkpoints, and the step in flight may run twice (the at-least-once window).
 */
export function executorLockKey(appName: string, executorId: string): string {
  return `baton.dbos.executor:${appName}:${executorId}`;
}

const RETRY_MS = 500;

async function tryLock(databaseUrl: string, key: string): Promise<pg.Client | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {}); // a dropped connection ends the session; `end` below says so
  try {
    await client.connect();
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [key]);
    if (rows[0]?.ok) return client;
  } catch {
    // the database is unreachable: not held
  }
  await client.end().catch(() => undefined);
  return undefined;
}

export class ExecutorLock {
  #client: pg.Client | undefined;
  #released = false;

  private constructor(
    private readonly databaseUrl: string,
    private readonly key: string,
    client: pg.Client,
  ) {
    this.#hold(client);
  }

  /** Takes the lock, waiting up to `waitMs` for a supervisor that holds it while it recovers a dead executor's runs. */
  static async acquire(databaseUrl: string, key: string, waitMs = 10_000): Promise<ExecutorLock | undefined> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const client = await tryLock(databaseUrl, key);
      if (client) return new ExecutorLock(databaseUrl, key, client);
      if (Date.now() >= deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS / 2));
    }
  }

  /** Whether the lock of `key` is free, that is, its executor is dead; if so, hold it while `recover` runs. */
  static async whileDead(databaseUrl: string, key: string, recover: () => Promise<void>): Promise<boolean> {
    const client = await tryLock(databaseUrl, key);
    if (!client) return false;
    try {
      await recover();
      return true;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Keeps the session; when it ends (the database went away), takes the lock again as soon as it can. */
  #hold(client: pg.Client): void {
    this.#client = client;
    client.once('end', () => {
      if (this.#released) return;
      this.#client = undefined;
      void this.#retake();
    });
  }

  async #retake(): Promise<void> {
    while (!this.#released) {
      const client = await tryLock(this.databaseUrl, this.key);
      if (client) {
        if (this.#released) return void (await client.end().catch(() => undefined));
        return this.#hold(client);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  async release(): Promise<void> {
    this.#released = true;
    await this.#client?.end().catch(() => undefined);
  }
}
