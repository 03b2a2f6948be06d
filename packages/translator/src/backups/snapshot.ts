import { resolve } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { migrate, openDatabase, SQLite } from '@app/server-kit';
import type { TranslatorDB } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import { translatorMigrations } from '../db/store.ts';
import { copyProject } from './copy.ts';
import { writeTeam, type TeamEntry } from './format.ts';
import { readLiveTeam } from './team-repository.ts';

/** The file of the live SQLite database, found the way openDatabase finds it. */
export function sqliteFile(ctx: TranslatorContext): string {
  const url = ctx.config.databaseUrl;
  return url?.startsWith('sqlite:')
    ? resolve(url.slice('sqlite:'.length))
    : resolve(ctx.config.dataDir, 'translator.db');
}

/** Adds the team section and leaves the SQLite file standalone (no -wal/-shm companions) and compact. */
function finalise(file: string, team: TeamEntry[]) {
  const copy = new SQLite(file);
  try {
    writeTeam(copy, team);
    copy.pragma('journal_mode = DELETE');
    copy.exec('VACUUM');
  } finally {
    copy.close();
  }
}

/**
 * Runs `read` in one consistent read of the live database. On SQLite that is a transaction of a
 * read-only connection of its own (the database is in WAL mode, so the service's writes go on meanwhile);
 * on PostgreSQL a REPEATABLE READ transaction.
 */
async function readConsistently<T>(
  ctx: TranslatorContext,
  read: (source: Kysely<TranslatorDB>) => Promise<T>,
): Promise<T> {
  if (ctx.dialect === 'postgres')
    return ctx.db.transaction().setIsolationLevel('repeatable read').execute(read);
  const live = new SQLite(sqliteFile(ctx), { readonly: true, fileMustExist: true });
  const source = new Kysely<TranslatorDB>({ dialect: new SqliteDialect({ database: live }) });
  try {
    return await source.transaction().execute(read);
  } finally {
    await source.destroy();
  }
}

/**
 * Writes a consistent snapshot of one project to `file`: a fresh SQLite database with the translator's
 * own schema (so it opens as `sqlite:<file>`) holding the rows `copyProject` copies — the project's and
 * nothing else — and its team by e-mail (`backup_team`). The deployment's accounts, their sessions and
 * every other project stay out because nothing copies them.
 */
export async function writeSnapshot(ctx: TranslatorContext, projectId: number, file: string): Promise<void> {
  const target = openDatabase<TranslatorDB>({
    url: `sqlite:${file}`,
    dataDir: ctx.config.dataDir,
    fileName: 'unused',
  });
  let team: TeamEntry[];
  try {
    await migrate(target, translatorMigrations, 'translator');
    team = await readConsistently(ctx, async (source) => {
      await copyProject(source, target.db, projectId);
      return readLiveTeam(source, projectId);
    });
  } finally {
    await target.close();
  }
  finalise(file, team);
}
