import { resolve } from 'node:path';
import { migrate, openDatabase } from '@app/server-kit';
import type { TranslatorDB } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import { translatorMigrations } from '../db/store.ts';
import { copyProject } from './copy.ts';
import { SQLite } from '@app/server-kit';

/** The file of the live SQLite database, found the way openDatabase finds it. */
export function sqliteFile(ctx: TranslatorContext): string {
  const url = ctx.config.databaseUrl;
  return url?.startsWith('sqlite:')
    ? resolve(url.slice('sqlite:'.length))
    : resolve(ctx.config.dataDir, 'translator.db');
}

/** Leaves a SQLite file standalone (no -wal/-shm companions) and compact. */
function finalise(file: string, keepProject?: number) {
  const copy = new SQLite(file);
  try {
    copy.pragma('foreign_keys = ON');
    if (keepProject !== undefined) copy.prepare('delete from projects where id <> ?').run(keepProject);
    copy.pragma('journal_mode = DELETE');
    copy.exec('VACUUM');
  } finally {
    copy.close();
  }
}

/**
 * Writes a consistent snapshot of one project's data to `file` as a SQLite database with the
 * translator's own schema (so it can be opened as `sqlite:<file>`). On SQLite the online backup API
 * copies the live database page by page while it stays in use; the other projects are then removed from
 * the copy. On PostgreSQL every row of the project (AI jobs and their items included) is read in one
 * REPEATABLE READ transaction into a fresh SQLite file.
 */
export async function writeSnapshot(ctx: TranslatorContext, projectId: number, file: string): Promise<void> {
  if (ctx.dialect === 'sqlite') {
    const live = new SQLite(sqliteFile(ctx), { readonly: true, fileMustExist: true });
    try {
      await live.backup(file);
    } finally {
      live.close();
    }
    finalise(file, projectId);
    return;
  }
  const target = openDatabase<TranslatorDB>({
    url: `sqlite:${file}`,
    dataDir: ctx.config.dataDir,
    fileName: 'unused',
  });
  try {
    await migrate(target, translatorMigrations, 'translator');
    await ctx.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (source) => copyProject(source, target.db, projectId));
  } finally {
    await target.close();
  }
  finalise(file);
}
