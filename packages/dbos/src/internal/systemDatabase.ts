import type { DLogger } from '@dbos-inc/dbos-sdk';

/**
 * The database URL DBOS gets, with `idle_in_transaction_session_timeout` (60 s, DBOS's default) as a
 * connection option. Otherwise DBOS sets it with a query queued on each new pooled connection ahead
 * of the borrower's own, which `pg` reports as a deprecation warning at every worker launch. A URL
 * that sets it already is left alone.
 */
export function systemDatabaseUrl(databaseUrl: string, idleTransactionTimeoutMs = 60_000): string {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return databaseUrl;
  }
  const options = url.searchParams.get('options') ?? '';
  if (options.includes('idle_in_transaction_session_timeout')) return databaseUrl;
  url.searchParams.set('options', `${options} -c idle_in_transaction_session_timeout=${idleTransactionTimeoutMs}`.trim());
  return url.toString();
}

// DBOS's reports of a pooled connection lost in an outage: it drops the connection, and a query on it reports its own error.
const CONNECTION_LOST = /^Unexpected error (in pool|on a system database connection)/;

const text = (entry: unknown): string => (typeof entry === 'string' ? entry : entry instanceof Error ? entry.message : JSON.stringify(entry));

/**
 * The logger of a `DurableRunsClient`'s DBOS client, which lives in the application's process (a web
 * server, a CLI): DBOS's warnings and errors reach the console, except its reports of a pooled
 * connection lost in an outage (the connection is dropped, and a query on it reports its own error);
 * its info and debug lines are dropped.
 */
export const clientLogger: DLogger = {
  debug: () => {},
  info: () => {},
  warn: (entry) => {
    const line = text(entry);
    if (!CONNECTION_LOST.test(line)) console.warn(`DBOS client: ${line}`);
  },
  error: (entry) => console.error(`DBOS client: ${text(entry)}`),
};
