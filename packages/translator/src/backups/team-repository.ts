import type { Kysely } from 'kysely';
import { randomToken, sha256Hex } from '@app/server-kit';
import type { TranslatorDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { TeamEntry } from './format.ts';

/** What a restore did with the backup's team. */
export interface RestoredTeam {
  /** Entries given back to the account with their e-mail address. */
  members: number;
  /** Entries with no account here (or not accepted when the backup was made): new invitation links. */
  invitations: { email: string; path: string }[];
}

/** The project's members (by their account's e-mail) and open invitations, as a backup keeps them. */
export async function readLiveTeam(db: Kysely<TranslatorDB>, projectId: number): Promise<TeamEntry[]> {
  const members = await db
    .selectFrom('project_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['a.email', 'm.role', 'm.languages'])
    .where('m.project_id', '=', projectId)
    .execute();
  const invites = await db
    .selectFrom('project_invites')
    .select(['email', 'role', 'languages'])
    .where('project_id', '=', projectId)
    .where('expires_at', '>', nowIso())
    .execute();
  const team = new Map<string, TeamEntry>();
  for (const [rows, invited] of [
    [invites, true],
    [members, false],
  ] as const) {
    for (const row of rows)
      team.set(row.email, {
        email: row.email,
        role: row.role,
        languages: JSON.parse(row.languages) as string[],
        invited,
      });
  }
  return [...team.values()];
}

/**
 * Gives a restored project its team: a member whose e-mail has an account here becomes a member of it
 * again; everyone else (and every invitation) gets a new invitation, valid `inviteDays`, whose link only
 * the caller learns. No account is ever made.
 */
export async function restoreTeam(
  db: Kysely<TranslatorDB>,
  projectId: number,
  team: TeamEntry[],
  inviteDays: number,
): Promise<RestoredTeam> {
  const restored: RestoredTeam = { members: 0, invitations: [] };
  const now = nowIso();
  for (const entry of team) {
    const languages = JSON.stringify(entry.languages);
    const account = entry.invited
      ? undefined
      : await db.selectFrom('accounts').select('id').where('email', '=', entry.email).executeTakeFirst();
    if (account) {
      await db
        .insertInto('project_members')
        .values({
          project_id: projectId,
          account_id: account.id,
          role: entry.role,
          languages,
          created_at: now,
        })
        .execute();
      restored.members += 1;
      continue;
    }
    const token = randomToken(24);
    await db
      .insertInto('project_invites')
      .values({
        project_id: projectId,
        token_hash: sha256Hex(token),
        email: entry.email,
        role: entry.role,
        languages,
        invited_by: 'restore',
        expires_at: new Date(Date.now() + inviteDays * 86_400_000).toISOString(),
        created_at: now,
      })
      .execute();
    restored.invitations.push({ email: entry.email, path: `/invite/${token}` });
  }
  return restored;
}
