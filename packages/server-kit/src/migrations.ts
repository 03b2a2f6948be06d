import { sql, Migrator, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import type { Database, DialectName } from './database.ts';

export type MigrationSet = (dialect: DialectName) => Record<string, Migration>;

const MIGRATION_LOCK_KEY = 7_340_211;

/**
 * Applies pending migrations. On PostgreSQL a session advisory lock serialises start-up across
 * processes (Kysely's own lock table is created outside any lock, so two first starts could race).
 */
export async function migrate(database: Database<unknown>, set: MigrationSet): Promise<void> {
  const migrations = set(database.dialect);
  const run = async (db: Kysely<unknown>) => {
    // With a schema of its own, Kysely must look for its bookkeeping tables in that schema: its
    // introspection lists every schema, so another schema's lock table would count as ours.
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations },
      ...(database.schema ? { migrationTableSchema: database.schema } : {}),
    });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((result) => result.status === 'Error');
    if (error) {
      throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`, {
        cause: error,
      });
    }
  };
  if (database.dialect === 'sqlite') return run(database.db);
  await database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
    try {
      await run(connection);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
    }
  });
}

/** Adds an auto-incrementing integer primary key `id` in the dialect's own way. */
export function withId<T extends string>(table: CreateTableBuilder<T>, dialect: DialectName, column = 'id') {
  return dialect === 'postgres'
    ? table.addColumn(column, 'serial', (c) => c.primaryKey())
    : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}
