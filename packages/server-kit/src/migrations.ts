import { sql, Migrator, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import { openDatabase, type Database, type DatabaseOptions, type DialectName } from './database.ts';

export type MigrationSet = (dialect: DialectName) => Record<string, Migration>;

/**
 * PostgreSQL advisory lock held while migrating. Kysely's migrator reads the tables of every schema of
 * the database by name, so whatever drops a schema must hold this lock too (see createTestDatabase).
 */
export const MIGRATION_LOCK_KEY = 7_340_211;

function migrator<DB>(database: Database<DB>, db: Kysely<DB>, set: MigrationSet, name: string): Migrator {
  const migrations = set(database.dialect);
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Each service keeps its own history, so two services can share one database.
    migrationTableName: `${name}_migration`,
    migrationLockTableName: `${name}_migration_lock`,
    ...(database.schema ? { migrationTableSchema: database.schema } : {}),
  });
}

export interface MigrationStatus {
  applied: string[];
  pending: string[];
  /** Recorded as applied but not in the set: a newer version migrated the database. */
  unknown: string[];
}

/**
 * Which of the set's migrations the database has and which it lacks; reads only, creates nothing. Under
 * the migration lock, since the migrator's read of every schema's tables is what a drop must not meet.
 */
export function migrationStatus<DB>(
  database: Database<DB>,
  set: MigrationSet,
  name = 'kysely',
): Promise<MigrationStatus> {
  return withMigrationLock(database, async (db) => {
    const infos = await migrator(database, db, set, name).getMigrations();
    const applied = infos.filter((info) => info.executedAt).map((info) => info.name);
    const known = new Set(infos.map((info) => info.name));
    // Every version has the first migration, so a database with none applied has no history to compare.
    const table = database.schema ? `${database.schema}.${name}_migration` : `${name}_migration`;
    const recorded = applied.length
      ? (await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(db)).rows
      : [];
    return {
      applied,
      pending: infos.filter((info) => !info.executedAt).map((info) => info.name),
      unknown: recorded
        .map((row) => row.name)
        .filter((migration) => !known.has(migration))
        .sort(),
    };
  });
}

/** On PostgreSQL, `work` runs on one connection holding the migration lock; on SQLite, as it is. */
function withMigrationLock<DB, T>(database: Database<DB>, work: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (database.dialect === 'sqlite') return work(database.db);
  return database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
    }
  });
}

/**
 * Applies pending migrations, recorded in `<name>_migration`, and resolves to the names it applied. On
 * PostgreSQL a session advisory lock serialises start-up across processes (Kysely's own lock table is
 * created outside any lock, so two first starts could race).
 */
export async function migrate<DB>(
  database: Database<DB>,
  set: MigrationSet,
  name = 'kysely',
): Promise<string[]> {
  const run = async (db: Kysely<DB>) => {
    const { error, results } = await migrator(database, db, set, name).migrateToLatest();
    const failed = results?.find((result) => result.status === 'Error');
    if (error) {
      throw new Error(
        `migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`,
        {
          cause: error,
        },
      );
    }
    return (results ?? [])
      .filter((result) => result.status === 'Success')
      .map((result) => result.migrationName);
  };
  if (database.dialect === 'sqlite') return runWithRetry(() => run(database.db));
  return withMigrationLock(database, run);
}

/**
 * SQLite has no lock Kysely can take across processes: when two processes migrate one file at once,
 * the loser's transaction fails (the winner's committed) and a retry finds the work done.
 */
async function runWithRetry<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
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

/** Thrown at start-up with MIGRATE_ON_START=false when the database lacks migrations. */
export class PendingMigrationsError extends Error {
  constructor(pending: string[], command: string) {
    super(
      `the database lacks ${pending.length} migration(s) (${pending.join(', ')}) and MIGRATE_ON_START=false: ` +
        `run \`${command}\` first (or set MIGRATE_ON_START=true)`,
    );
    this.name = 'PendingMigrationsError';
  }
}

export interface StartMigration {
  /** MIGRATE_ON_START: apply pending migrations (true), or refuse to start while any are pending. */
  migrateOnStart: boolean;
  /** The command that migrates this service's database, named when it refuses (e.g. `manager db migrate`). */
  command: string;
}

/**
 * Opens a service's database and brings its schema up to date, or with `migrateOnStart: false` checks
 * that it is; a failed migration or check closes it again.
 */
export async function openMigrated<DB>(
  options: DatabaseOptions,
  set: MigrationSet,
  name: string,
  start: StartMigration = { migrateOnStart: true, command: '' },
): Promise<Database<DB>> {
  const database = openDatabase<DB>(options);
  try {
    if (start.migrateOnStart) await migrate(database, set, name);
    else {
      const { pending } = await migrationStatus(database, set, name);
      if (pending.length) throw new PendingMigrationsError(pending, start.command);
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
