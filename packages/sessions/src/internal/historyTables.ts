import type { SqlDialect } from '../sql/drivers.js';
import type { SchemaSpec } from '../sql/schemaVersions.js';
import { prefixedTableNames } from '../sql/tablePrefix.js';

export const SESSIONS_COMPONENT = '@baton/sessions';
/** Raised when the tables below change (a newer schema is refused by older code, naming both versions). */
export const SESSIONS_SCHEMA_VERSION = 1;

const SUFFIXES = { items: 'session_items', operations: 'session_operations', versions: 'schema_versions' } as const;

export type HistoryTableNames = Record<keyof typeof SUFFIXES, string>;

/** The sessions' tables for a prefix (checked: letters, digits and `_`, short enough for PostgreSQL). */
export function historyTableNames(prefix: unknown = 'baton_'): HistoryTableNames {
  return prefixedTableNames(prefix, SUFFIXES);
}

/** Items in order per session (`position` grows by one per item); applied history operations per session. */
export function historySchema(t: HistoryTableNames): SchemaSpec {
  return {
    component: SESSIONS_COMPONENT,
    version: SESSIONS_SCHEMA_VERSION,
    versionsTable: t.versions,
    tables: [t.items, t.operations],
    ddl: (dialect: SqlDialect) => [
      `CREATE TABLE IF NOT EXISTS ${t.items} (
        session_id TEXT NOT NULL,
        position ${dialect.bigint} NOT NULL,
        item TEXT NOT NULL,
        PRIMARY KEY (session_id, position)
      )`,
      `CREATE TABLE IF NOT EXISTS ${t.operations} (
        session_id TEXT NOT NULL,
        operation_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        PRIMARY KEY (session_id, operation_id)
      )`,
    ],
  };
}
