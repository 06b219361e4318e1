export { SqlSession, type SqlSessionOptions, type SessionIdSource } from './sqlSession.js';
export { SqliteSession, type SqliteSessionOptions } from './sqliteSession.js';
export { PostgresSession, type PostgresSessionOptions } from './postgresSession.js';
export { SESSIONS_SCHEMA_VERSION } from './internal/historyTables.js';
export { SchemaVersionError } from './sql/schemaVersions.js';
export type { PostgresPool, PostgresQueryable, SqliteDatabase } from './sql/drivers.js';
