import { closeSync, existsSync, openSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { SQLite } from './sqlite-driver.ts';
import { isPostgresUrl, openDatabase, sqliteFile, type DatabaseOptions } from './database.ts';
import { migrate, migrationStatus, type MigrationSet } from './migrations.ts';

/** One service's database as its operator commands (`<service> db …`) see it. */
export interface DbTarget {
  /** The command that runs the service, as the operator types it (`manager`, `translator`). */
  command: string;
  options: DatabaseOptions;
  set: MigrationSet;
  /** The migration history's name (`<name>_migration`). */
  name: string;
}

/** An operator's mistake in a `db` command: printed as is, exit status 1. */
export class DbCommandError extends Error {}

/** `db status` exits with this when migrations are pending, so deploy scripts can tell. */
export const PENDING_EXIT_CODE = 3;

type Print = (line: string) => void;

/** The database in words, never with its password: a PostgreSQL URL without it, or the SQLite file's path. */
export function describeDatabase(options: DatabaseOptions): string {
  if (!isPostgresUrl(options.url)) return `sqlite:${resolve(sqliteFile(options))}`;
  const url = new URL(options.url!);
  url.password = '';
  url.searchParams.delete('password');
  return url.toString();
}

async function withDatabase<T>(
  target: DbTarget,
  work: (database: ReturnType<typeof openDatabase>) => Promise<T>,
) {
  const database = openDatabase(target.options);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/**
 * `db status`: dialect, database, applied and pending migrations; resolves to the exit status (1 when a
 * newer version migrated the database).
 */
export async function dbStatus(target: DbTarget, print: Print): Promise<number> {
  const postgres = isPostgresUrl(target.options.url);
  const where = describeDatabase(target.options);
  print(`Dialect: ${postgres ? 'postgres' : 'sqlite'}`);
  print(`Database: ${where}`);
  // A missing SQLite file is not created just to be inspected.
  const missing = !postgres && !existsSync(sqliteFile(target.options));
  const { applied, pending, unknown } = missing
    ? { applied: [], pending: Object.keys(target.set('sqlite')), unknown: [] }
    : await withDatabase(target, (database) => migrationStatus(database, target.set, target.name));
  if (missing) print('The database file does not exist yet (the first start or `db migrate` creates it).');
  print(`Applied (${applied.length}): ${applied.join(', ') || 'none'}`);
  print(`Pending (${pending.length}): ${pending.join(', ') || 'none'}`);
  if (unknown.length) {
    print(`Unknown to this version (${unknown.length}): ${unknown.join(', ')}`);
    print('A newer version migrated this database: run that version, or restore the backup taken before it.');
    return 1;
  }
  if (!pending.length) return 0;
  print(`Run \`${target.command} db migrate\` to apply the pending migrations.`);
  return PENDING_EXIT_CODE;
}

/** `db migrate`: applies the pending migrations and names them. */
export async function dbMigrate(target: DbTarget, print: Print): Promise<number> {
  print(`Database: ${describeDatabase(target.options)}`);
  const applied = await withDatabase(target, (database) => migrate(database, target.set, target.name));
  if (applied.length) print(`Applied ${applied.length} migration(s): ${applied.join(', ')}`);
  else print('Nothing to do: the database is up to date.');
  return 0;
}

/**
 * `db backup FILE`: on SQLite a consistent copy taken through SQLite's online backup (safe while the
 * service runs and writes), readable by its owner only, and complete or absent (a temporary file
 * renamed at the end). On PostgreSQL it prints the `pg_dump` command to run instead.
 */
export async function dbBackup(
  target: DbTarget,
  file: string,
  options: { force: boolean },
  print: Print,
): Promise<number> {
  if (isPostgresUrl(target.options.url)) {
    for (const line of pgDumpAdvice(target.options.url!, file)) print(line);
    return 0;
  }
  const source = resolve(sqliteFile(target.options));
  if (!existsSync(source)) throw new DbCommandError(`no database at ${source}`);
  const destination = resolve(file);
  if (existsSync(destination) && !options.force)
    throw new DbCommandError(`${destination} exists: give --force to overwrite it`);
  const temporary = `${destination}.${process.pid}.tmp`;
  // Created empty with mode 0600 first, so the copy is never readable by others, even for a moment.
  try {
    closeSync(openSync(temporary, 'w', 0o600));
  } catch (error) {
    throw new DbCommandError(`cannot write ${temporary}: ${(error as Error).message}`);
  }
  const database = new SQLite(source, { fileMustExist: true });
  try {
    await database.backup(temporary);
    renameSync(temporary, destination);
  } catch (error) {
    if (existsSync(temporary)) unlinkSync(temporary);
    throw error;
  } finally {
    database.close();
  }
  print(`Backed up ${source} to ${destination} (${statSync(destination).size} bytes).`);
  print(
    `To restore: stop the service, copy the file to ${source} and delete ${source}-wal and ${source}-shm if present.`,
  );
  return 0;
}

/** A word as the shell reads it back unchanged. */
const shellWord = (word: string) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

/** The `pg_dump` command for this connection, with every parameter but the password. */
export function pgDumpAdvice(databaseUrl: string, file: string): string[] {
  const url = new URL(databaseUrl);
  const sslmode = url.searchParams.get('sslmode');
  const words = [
    ...(sslmode ? [`PGSSLMODE=${shellWord(sslmode)}`] : []),
    'pg_dump',
    '--format=custom',
    `--file=${shellWord(file)}`,
    `--host=${shellWord(decodeURIComponent(url.hostname) || 'localhost')}`,
    `--port=${url.port || '5432'}`,
    ...(url.username ? [`--username=${shellWord(decodeURIComponent(url.username))}`] : []),
    `--dbname=${shellWord(decodeURIComponent(url.pathname.slice(1)) || 'postgres')}`,
  ];
  return [
    'PostgreSQL: this command does not copy the database itself. Run pg_dump (safe while the services run):',
    `  ${words.join(' ')}`,
    'Give the password in PGPASSWORD or ~/.pgpass (it is not shown here). Restore into an empty database with:',
    `  pg_restore --no-owner --dbname=<database> ${shellWord(file)}`,
  ];
}
