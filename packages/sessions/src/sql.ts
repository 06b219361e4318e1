/**
 * `@baton/sessions/sql`: the SQLite / PostgreSQL plumbing Baton's durable stores share (the sessions
 * here and the paused-run stores of `@baton/hitl-state`): the driver shapes, write transactions,
 * table-prefix checks and schema version rows.
 */
export { POSTGRES, SQLITE, type PostgresPool, type PostgresQueryResult, type PostgresQueryable, type SqlDialect, type SqliteDatabase, type SqliteStatement } from './sql/drivers.js';
export { DEFAULT_BUSY_TIMEOUT_MS, immediate, setBusyTimeout } from './sql/sqlite.js';
export { inTransaction, lockTransaction } from './sql/postgres.js';
export { MAX_IDENTIFIER_BYTES, maxTablePrefixLength, prefixedTableNames } from './sql/tablePrefix.js';
export { SchemaVersionError, ensurePostgresSchema, ensureSqliteSchema, type SchemaSpec } from './sql/schemaVersions.js';
