import { sql, Migrator, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import { openDatabase, type Database, type DatabaseOptions, type DialectName } from './database.ts';

export type MigrationSet = (dialect: DialectName) => Record<string, Migration>;

/**
 * PostgreSQL advisory lock held while migrating. Kysely's migrator reads the tables of every schema of
 * the database by name, so whatever drops a schema must hold this lock too (see createTestDatabase).
 */
export const MIGRATION_LOCK_KEY = 7_340_211;

/**
 * Applies pending migrations, recorded in `<name>_migration`. On PostgreSQL a session advisory lock serialises start-up across
 * processes (Kysely's own lock table is created outside any lock, so two first starts could race).
 */
export async function migrate<DB>(database: Database<DB>, set: MigrationSet, name = 'kysely'): Promise<void> {
  const migrations = set(database.dialect);
  const run = async (db: Kysely<DB>) => {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations },
      // Each service keeps its own history, so two services can share one database.
      migrationTableName: `${name}_migration`,
      migrationLockTableName: `${name}_migration_lock`,
      ...(database.schema ? { migrationTableSchema: database.schema } : {}),
    });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((result) => result.status === 'Error');
    if (error) {
      throw new Error(
        `migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`,
        {
          cause: error,
        },
      );
    }
  };
  if (database.dialect === 'sqlite') return runWithRetry(() => run(database.db));
  await database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
    try {
      await run(connection);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
    }
  });
}

/**
 * SQLite has no lock Kysely can take across processes: when two processes migrate one file at once,
 * the loser's transaction fails (the winner's committed) and a retry finds the work done.
 */
async function runWithRetry(run: () => Promise<void>, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** Adds an auto-incrementing integer primary key `id` in the dialect's own way. */
export function withId<T extends string>(table: CreateTableBuilder<T>, dialect: DialectName, column = 'id') {
  return dialect === 'postgres'
    ? table.addColumn(column, 'serial', (c) => c.primaryKey())
    : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Opens a service's database and brings its schema up to date; a failed migration closes it again. */
export async function openMigrated<DB>(
  options: DatabaseOptions,
  set: MigrationSet,
  name: string,
): Promise<Database<DB>> {
  const database = openDatabase<DB>(options);
  try {
    await migrate(database, set, name);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
