import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { openMigrated } from '@app/server-kit';
import type { TranslatorDB } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import { translatorMigrations } from '../db/store.ts';
import { nowIso } from '../common/time.ts';
import { copyProject, type CopyCounts } from './copy.ts';
import { compareWithBackup, type RestorePreview } from './restore-preview-repository.ts';
import { SQLite, type SQLiteDatabase } from '@app/server-kit';
import { BACKUP_FORMAT, formatOf, readTeam, RestoreError, toCurrentFormat } from './format.ts';
import { restoreTeam, type RestoredTeam } from './team-repository.ts';

export { RestoreError };

export interface RestoreResult {
  projectId: number;
  name: string;
  /** The name of the live project the backup replaced (`--replace`), or null when there was none. */
  replaced: string | null;
  rows: CopyCounts;
  /** The backup's team, given to a project that was not here (a live project keeps its own). */
  team: RestoredTeam;
}

export interface RestoreOptions {
  /** Overwrite the live project with the backup's id (else that is refused). */
  replace: boolean;
  /**
   * A key holder's restore of their own project: the file must hold this project, and the live
   * project's keys (API, page and provider keys) stay as they are, so a key replaced since the backup
   * does not come back.
   */
  into?: number | undefined;
}

/**
 * Checks that `file` is an undamaged backup of project `projectId` this version can restore (RestoreError
 * if not).
 */
export function checkSnapshot(file: string, projectId: number): void {
  const backup = openBackup(file);
  try {
    let check: unknown;
    try {
      check = backup.pragma('quick_check', { simple: true });
    } catch (error) {
      throw new RestoreError(`the file is not a readable SQLite database (${(error as Error).message})`);
    }
    if (check !== 'ok') throw new RestoreError(`the file is damaged (SQLite quick_check: ${String(check)})`);
    readBackupProject(backup, projectId);
  } finally {
    backup.close();
  }
}

/** What restoring `file` over the project `projectId` would change (the file must hold that project). */
export async function previewSnapshot(
  ctx: TranslatorContext,
  file: string,
  projectId: number,
): Promise<RestorePreview> {
  const backup = openBackup(file);
  try {
    const { project } = readBackupProject(backup, projectId);
    return await compareWithBackup(ctx.db, backup, project);
  } finally {
    backup.close();
  }
}

/**
 * Loads a backup file (a per-project SQLite file from `writeSnapshot`) into the live database, SQLite or
 * PostgreSQL, in one transaction: the project with the file's id is deleted with all its rows, then every
 * row of the file is inserted with its ids. The live project's team stays; a project that was not here
 * gets the backup's team by e-mail (see restoreTeam). Accounts, sessions, memberships and invitations in
 * a file of an earlier format are never read. AI jobs that were running when the backup was made come back
 * as `pending` (a worker resumes them), as after a graceful shutdown. The file must come from a
 * deployment with the same SECRET_KEY (the project's API key is sealed with it).
 */
export async function restoreSnapshot(
  ctx: TranslatorContext,
  file: string,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const backup = openBackup(file);
  let upgraded: string | undefined;
  try {
    const { project, outdated, format } = readBackupProject(backup, options.into);
    if (!outdated && format === BACKUP_FORMAT) return await restoreFrom(ctx, backup, project, options);
    // A backup from before a migration or of an earlier format: a copy of it is brought up to date first
    // (the file is left as it was).
    backup.close();
    upgraded = join(mkdtempSync(join(tmpdir(), 'translator-restore-')), 'backup.sqlite');
    copyFileSync(file, upgraded);
    if (format < BACKUP_FORMAT) toCurrentFormat(upgraded);
    const database = await openMigrated<TranslatorDB>(
      { url: `sqlite:${upgraded}`, dataDir: dirname(upgraded), fileName: 'unused' },
      translatorMigrations,
      'translator',
    );
    await database.close();
    return await restoreFrom(ctx, openBackup(upgraded), project, options);
  } finally {
    if (backup.open) backup.close();
    if (upgraded) rmSync(dirname(upgraded), { recursive: true, force: true });
  }
}

/**
 * Opens a backup file read-only. The file may come from a key holder's upload, so its schema is not
 * trusted: views and triggers in it may not call functions with side effects.
 */
function openBackup(file: string): SQLiteDatabase {
  try {
    const database = new SQLite(file, { readonly: true, fileMustExist: true });
    database.pragma('trusted_schema = OFF');
    return database;
  } catch (error) {
    throw new RestoreError(`the file cannot be opened as SQLite (${(error as Error).message})`);
  }
}

/** Restores from an open backup file (closed when done). */
async function restoreFrom(
  ctx: TranslatorContext,
  backup: SQLiteDatabase,
  project: BackupProject,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const source = new Kysely<TranslatorDB>({ dialect: new SqliteDialect({ database: backup }) });
  try {
    try {
      ctx.secrets.open(project.api_key_sealed);
    } catch {
      throw new RestoreError('the backup was made with another SECRET_KEY: its API key cannot be read');
    }
    const replaced = await ctx.db.transaction().execute(async (trx) => {
      const live = await trx
        .selectFrom('projects')
        .select('name')
        .where('id', '=', project.id)
        .executeTakeFirst();
      if (live && !options.replace) {
        throw new RestoreError(
          `project ${project.id} (${live.name}) exists in this database; run again with --replace to overwrite ` +
            `it and all its data with the backup's project (${project.name})`,
        );
      }
      const keys =
        options.into === undefined
          ? undefined
          : await trx
              .selectFrom('projects')
              .select(['api_key_hash', 'api_key_sealed', 'page_key', 'provider_key_sealed'])
              .where('id', '=', project.id)
              .executeTakeFirst();
      // Who may use the project belongs to this deployment, not to the backup: its team stays.
      const members = await trx
        .selectFrom('project_members')
        .selectAll()
        .where('project_id', '=', project.id)
        .execute();
      const invites = await trx
        .selectFrom('project_invites')
        .selectAll()
        .where('project_id', '=', project.id)
        .execute();
      await trx.deleteFrom('projects').where('id', '=', project.id).execute();
      let rows: CopyCounts;
      try {
        rows = await copyProject(source, trx, project.id);
      } catch (error) {
        throw new RestoreError(
          `could not insert the backup's rows (${(error as Error).message}); are its ids used by another project of this database?`,
        );
      }
      // A project that was not here has no team of its own: it gets the backup's.
      const team = live
        ? { members: 0, invitations: [] }
        : await restoreTeam(trx, project.id, readTeam(backup), ctx.config.accounts.inviteDays);
      const foreign = await foreignReferences(trx, project.id);
      if (foreign.length) {
        throw new RestoreError(
          `the backup's ${foreign.join(', ')} refer to rows of another project of this database ` +
            '(the file was edited or is damaged); nothing was restored',
        );
      }
      if (keys) await trx.updateTable('projects').set(keys).where('id', '=', project.id).execute();
      if (members.length) await trx.insertInto('project_members').values(members).execute();
      if (invites.length) await trx.insertInto('project_invites').values(invites).execute();
      await trx
        .updateTable('ai_jobs')
        .set({ status: 'pending', lease_owner: null, lease_until: null, updated_at: nowIso() })
        .where('project_id', '=', project.id)
        .where('status', '=', 'running')
        .execute();
      if (ctx.dialect === 'postgres') await advanceSequences(trx);
      return { replaced: live?.name ?? null, rows, team };
    });
    return { projectId: project.id, name: project.name, ...replaced };
  } finally {
    await source.destroy();
  }
}

interface BackupProject {
  id: number;
  name: string;
  api_key_sealed: string;
}

/**
 * The one project of a backup file, after checking the file is a translator backup this version reads;
 * `outdated` when the file's schema lacks later migrations; refused unless it is project `expected`, if given.
 */
function readBackupProject(
  file: SQLiteDatabase,
  expected?: number,
): { project: BackupProject; outdated: boolean; format: number } {
  const known = Object.keys(translatorMigrations('sqlite'));
  let applied: string[];
  let projects: BackupProject[];
  try {
    applied = (file.prepare('select name from translator_migration').all() as { name: string }[]).map(
      (row) => row.name,
    );
    projects = file.prepare('select id, name, api_key_sealed from projects').all() as typeof projects;
  } catch {
    throw new RestoreError('not a translator backup (no translator tables in the file)');
  }
  const format = formatOf(file);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length) throw new RestoreError(`the backup is from a newer version (${unknown.join(', ')})`);
  if (projects.length !== 1) {
    throw new RestoreError(`a backup holds one project; this file holds ${projects.length}`);
  }
  const project = projects[0]!;
  if (expected !== undefined && project.id !== expected) {
    throw new RestoreError(`the file is a backup of another project (${project.id}), not of this one`);
  }
  return { project, outdated: applied.length < known.length, format };
}

/**
 * The file is checked, not trusted: its rows are inserted under the project's id, but a phrase or
 * prompt id inside them could name a row of another project of the live database (the foreign keys
 * only ask that the row exists), which would show that project's text to this project's key holders
 * or have its AI jobs translate it. Names the kinds of rows that do.
 */
async function foreignReferences(db: Kysely<TranslatorDB>, projectId: number): Promise<string[]> {
  const otherPhrases = db.selectFrom('phrases').select('id').where('project_id', '<>', projectId);
  const found: string[] = [];
  const withPhrases = {
    translations: 'translations',
    translation_history: 'history',
    phrase_urls: 'phrase URLs',
  };
  for (const [table, label] of Object.entries(withPhrases) as [keyof typeof withPhrases, string][]) {
    const row = await db
      .selectFrom(table)
      .select('phrase_id')
      .where('project_id', '=', projectId)
      .where('phrase_id', 'in', otherPhrases)
      .limit(1)
      .executeTakeFirst();
    if (row) found.push(label);
  }
  const item = await db
    .selectFrom('ai_job_items')
    .innerJoin('ai_jobs', 'ai_jobs.id', 'ai_job_items.job_id')
    .select('ai_job_items.job_id')
    .where('ai_jobs.project_id', '=', projectId)
    .where('ai_job_items.phrase_id', 'in', otherPhrases)
    .limit(1)
    .executeTakeFirst();
  if (item) found.push('AI job items');
  const job = await db
    .selectFrom('ai_jobs')
    .select('id')
    .where('project_id', '=', projectId)
    .where('prompt_id', 'in', db.selectFrom('prompts').select('id').where('project_id', '<>', projectId))
    .limit(1)
    .executeTakeFirst();
  if (job) found.push('AI jobs (their prompt)');
  return found;
}

/** The tables a restore writes whose ids come from a counter. */
export const RESTORED_SERIAL_TABLES = [
  'projects',
  'phrases',
  'translations',
  'translation_history',
  'glossary_terms',
  'translation_memory',
] as const;

/**
 * After rows were inserted with their ids, each serial sequence must hand out ids above them (never
 * moved back: another transaction may hold a higher value already).
 */
async function advanceSequences(db: Kysely<TranslatorDB>) {
  for (const table of RESTORED_SERIAL_TABLES) {
    await sql`
      select setval(s, greatest(m, coalesce(pg_sequence_last_value(s::regclass), 0)))
      from (select pg_get_serial_sequence(${table}, 'id') as s, (select max(id) from ${sql.table(table)}) as m) t
      where m is not null`.execute(db);
  }
}
