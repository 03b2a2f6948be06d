import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { migrate, openDatabase } from '@app/server-kit';
import type { TranslatorDB } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import { translatorMigrations } from '../../migrations/index.ts';

const PAGE = 2000;

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
 * the copy. On PostgreSQL the rows are read in one REPEATABLE READ transaction into a fresh SQLite file.
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

async function copyProject(source: Kysely<TranslatorDB>, target: Kysely<TranslatorDB>, projectId: number) {
  const project = await source.selectFrom('projects').selectAll().where('id', '=', projectId).execute();
  await target.insertInto('projects').values(project).execute();
  const prompts = await source
    .selectFrom('prompts')
    .selectAll()
    .where('project_id', '=', projectId)
    .execute();
  if (prompts.length) await target.insertInto('prompts').values(prompts).execute();

  for (let after = 0; ;) {
    const rows = await source
      .selectFrom('phrases')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (!rows.length) break;
    await target.insertInto('phrases').values(rows).execute();
    after = rows.at(-1)!.id;
  }
  for (let after = 0; ;) {
    const rows = await source
      .selectFrom('translations')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (!rows.length) break;
    await target.insertInto('translations').values(rows).execute();
    after = rows.at(-1)!.id;
  }
  for (let offset = 0; ; offset += PAGE) {
    const rows = await source
      .selectFrom('phrase_urls')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('phrase_id')
      .orderBy('url')
      .limit(PAGE)
      .offset(offset)
      .execute();
    if (!rows.length) break;
    await target.insertInto('phrase_urls').values(rows).execute();
  }
}
