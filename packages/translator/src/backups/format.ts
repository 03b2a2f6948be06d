import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { SQLite, type SQLiteDatabase } from '@app/server-kit';
import type { MemberRole } from '../db/schema.ts';

export class RestoreError extends Error {}

/**
 * The backup file format, kept in SQLite's `user_version`. 1 (0 in the file): the translator's tables as
 * they were, which on SQLite held the whole deployment's accounts and sessions. 2: the project's rows
 * only, its team by e-mail in `backup_team`; accounts, sessions, memberships, invitations and screenshots
 * empty.
 */
export const BACKUP_FORMAT = 2;

/** The project's team in a backup: members and open invitations, by e-mail (no account, no token). */
export interface TeamEntry {
  email: string;
  role: MemberRole;
  languages: string[];
  /** An invitation not yet accepted (else a member). */
  invited: boolean;
}

const ROLES: readonly string[] = ['owner', 'manager', 'translator', 'reviewer', 'viewer'];

/** The tables of a format 1 file that hold what belongs to the deployment, not to the project. */
const DEPLOYMENT_ROWS = [
  'account_sessions',
  'project_members',
  'project_invites',
  'accounts',
  'phrase_screenshots',
] as const;

const TEAM_TABLE = `create table if not exists backup_team (
  email varchar(254) not null primary key,
  role varchar(16) not null,
  languages text not null,
  invited integer not null
)`;

export function formatOf(file: SQLiteDatabase): number {
  const version = file.pragma('user_version', { simple: true }) as number;
  if (version > BACKUP_FORMAT)
    throw new RestoreError(`the backup is from a newer version (format ${version})`);
  return Math.max(version, 1);
}

/** Writes the team section and marks the file as the current format. */
export function writeTeam(file: SQLiteDatabase, team: TeamEntry[]): void {
  file.exec(TEAM_TABLE);
  const insert = file.prepare(
    'insert into backup_team (email, role, languages, invited) values (?, ?, ?, ?)',
  );
  for (const entry of team)
    insert.run(entry.email, entry.role, JSON.stringify(entry.languages), entry.invited ? 1 : 0);
  file.pragma(`user_version = ${BACKUP_FORMAT}`);
}

/** The team section of a current file, checked row by row (the file may come from an upload). */
export function readTeam(file: SQLiteDatabase): TeamEntry[] {
  let rows: { email: unknown; role: unknown; languages: unknown; invited: unknown }[];
  try {
    rows = file
      .prepare('select email, role, languages, invited from backup_team order by email')
      .all() as typeof rows;
  } catch {
    throw new RestoreError('the backup has no readable team section');
  }
  const team = new Map<string, TeamEntry>();
  for (const row of rows) {
    const languages = typeof row.languages === 'string' ? parseList(row.languages) : undefined;
    if (
      typeof row.email !== 'string' ||
      row.email.length > 254 ||
      !/^[^\s@]+@[^\s@]+$/.test(row.email) ||
      typeof row.role !== 'string' ||
      !ROLES.includes(row.role) ||
      !languages
    )
      throw new RestoreError('the backup’s team section is damaged');
    const email = row.email.toLowerCase();
    if (!team.has(email))
      team.set(email, { email, role: row.role as MemberRole, languages, invited: row.invited === 1 });
  }
  return [...team.values()];
}

function parseList(json: string): string[] | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) && value.every((item) => typeof item === 'string' && item.length <= 35)
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Brings a format 1 file up to the current format in place: what belonged to the deployment (accounts
 * with their password hashes, sessions, memberships, invitations, screenshots, the id counters) is
 * deleted and the file rewritten, so none of it stays in free pages. The team section is left empty: the
 * old file's memberships name accounts by the deployment's ids, not by e-mail.
 */
export function toCurrentFormat(path: string): void {
  const file = new SQLite(path);
  try {
    file.pragma('trusted_schema = OFF');
    file.pragma('journal_mode = DELETE');
    const tables = new Set(
      (file.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
    file.transaction(() => {
      for (const table of DEPLOYMENT_ROWS) if (tables.has(table)) file.exec(`delete from ${table}`);
      if (tables.has('sqlite_sequence')) file.exec('delete from sqlite_sequence');
      writeTeam(file, []);
    })();
    file.exec('VACUUM');
  } finally {
    file.close();
  }
}

/** Brings a file of an earlier format up to date through a copy that replaces it (readers never see half). */
export function replaceWithCurrentFormat(path: string, scratch: string): void {
  try {
    copyFileSync(path, scratch);
    toCurrentFormat(scratch);
    renameSync(scratch, path);
  } finally {
    rmSync(scratch, { force: true });
  }
}

/** Whether the file at `path` is a backup of an earlier format (false when it is no SQLite file at all). */
export function isEarlierFormat(path: string): boolean {
  let file: SQLiteDatabase | undefined;
  try {
    file = new SQLite(path, { readonly: true, fileMustExist: true });
    return (file.pragma('user_version', { simple: true }) as number) < BACKUP_FORMAT;
  } catch {
    return false;
  } finally {
    file?.close();
  }
}
