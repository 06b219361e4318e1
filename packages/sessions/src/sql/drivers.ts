/** A prepared statement, as `better-sqlite3` gives it. */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** What Baton's SQLite stores need of a `better-sqlite3` `Database` (any compatible driver works). */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string): unknown;
  transaction(fn: (...args: any[]) => any): { immediate(...args: any[]): any };
}

export interface PostgresQueryResult {
  rows: any[];
  rowCount: number | null;
}

/** What Baton's PostgreSQL stores need of a `pg` client. */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
}

/** What Baton's PostgreSQL stores need of a `pg` `Pool`: queries, and a dedicated client for transactions. */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresQueryable & { release(error?: Error | boolean): void }>;
}

/** The column types that differ between the two databases. */
export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /** A 64-bit integer column (milliseconds, positions). */
  readonly bigint: string;
}

export const SQLITE: SqlDialect = { name: 'sqlite', bigint: 'INTEGER' };
export const POSTGRES: SqlDialect = { name: 'postgres', bigint: 'BIGINT' };
