import { UserError } from '@baton/types';
import { POSTGRES, SQLITE, type PostgresPool, type SqlDialect, type SqliteDatabase } from './drivers.js';
import { inTransaction, lockTransaction } from './postgres.js';
import { immediate } from './sqlite.js';

/** Tables a component creates on first use, and the schema version it records beside them. */
export interface SchemaSpec {
  /** Who owns the tables (`@baton/sessions`): the key of its row in the versions table. */
  readonly component: string;
  /** The schema version this code writes (a whole number, raised when the tables change). */
  readonly version: number;
  /** Where versions are recorded, a row per component (`<prefix>schema_versions`). */
  readonly versionsTable: string;
  /** The component's tables, named in errors. */
  readonly tables: readonly string[];
  /** `CREATE TABLE IF NOT EXISTS ...` statements for the component's tables. */
  ddl(dialect: SqlDialect): readonly string[];
}

/** The tables were written by a newer version of their component; nothing was changed. */
export class SchemaVersionError extends UserError {
  readonly component: string;
  /** The version recorded in the database. */
  readonly found: number;
  /** The newest version this code reads. */
  readonly supported: number;
  constructor(spec: SchemaSpec, found: number) {
    super(
      `Tables ${spec.tables.join(', ')} were written by schema version ${found} of ${spec.component} (recorded in ${spec.versionsTable}); ` +
        `this version of ${spec.component} reads schema version ${spec.version} and older. Upgrade ${spec.component} to use them, or choose another tablePrefix.`,
    );
    this.component = spec.component;
    this.found = found;
    this.supported = spec.version;
  }
}

const versionsDdl = (table: string) => `CREATE TABLE IF NOT EXISTS ${table} (component TEXT PRIMARY KEY, version INTEGER NOT NULL)`;

/** What to do with the version found: refuse a newer one, else record ours after creating what is missing. */
function check(spec: SchemaSpec, found: unknown): 'insert' | 'update' | 'current' {
  if (found === undefined) return 'insert';
  const version = Number(found);
  if (!Number.isInteger(version)) throw new UserError(`${spec.versionsTable} holds ${JSON.stringify(found)} as the schema version of ${spec.component}; expected a whole number.`);
  if (version > spec.version) throw new SchemaVersionError(spec, version);
  return version === spec.version ? 'current' : 'update';
}

/** Creates the component's tables in SQLite when missing and records its version, in one write transaction; refuses tables of a newer version. */
export function ensureSqliteSchema(db: SqliteDatabase, spec: SchemaSpec): void {
  immediate(db, () => {
    db.exec(versionsDdl(spec.versionsTable));
    const row = db.prepare(`SELECT version FROM ${spec.versionsTable} WHERE component = ?`).get(spec.component) as { version: unknown } | undefined;
    const next = check(spec, row?.version);
    if (next === 'current') return;
    for (const sql of spec.ddl(SQLITE)) db.exec(sql);
    if (next === 'insert') db.prepare(`INSERT INTO ${spec.versionsTable} (component, version) VALUES (?, ?)`).run(spec.component, spec.version);
    else db.prepare(`UPDATE ${spec.versionsTable} SET version = ? WHERE component = ?`).run(spec.version, spec.component);
  });
}

/** The same in PostgreSQL, serialized with other first-time setups of the same tables. */
export async function ensurePostgresSchema(pool: PostgresPool, spec: SchemaSpec): Promise<void> {
  await inTransaction(pool, async (client) => {
    await lockTransaction(client, spec.versionsTable);
    await client.query(versionsDdl(spec.versionsTable));
    const { rows } = await client.query(`SELECT version FROM ${spec.versionsTable} WHERE component = $1`, [spec.component]);
    const next = check(spec, rows[0]?.version);
    if (next === 'current') return;
    for (const sql of spec.ddl(POSTGRES)) await client.query(sql);
    if (next === 'insert') await client.query(`INSERT INTO ${spec.versionsTable} (component, version) VALUES ($1, $2)`, [spec.component, spec.version]);
    else await client.query(`UPDATE ${spec.versionsTable} SET version = $1 WHERE component = $2`, [spec.version, spec.component]);
  });
}
