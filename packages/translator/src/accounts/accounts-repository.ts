import type { Kysely, Transaction } from 'kysely';
import type { MemberRole, TranslatorDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';

type Db = Kysely<TranslatorDB> | Transaction<TranslatorDB>;

export interface MemberRow {
  accountId: number;
  email: string;
  name: string;
  role: MemberRole;
  languages: string[];
}

export interface InviteRow {
  id: number;
  projectId: number;
  email: string;
  role: MemberRole;
  languages: string[];
  invitedBy: string;
  expiresAt: string;
  createdAt: string;
}

const languagesOf = (json: string) => JSON.parse(json) as string[];

/** Accounts, their sessions, their memberships of projects and the invitations to join one. */
export class AccountsRepository {
  constructor(private readonly db: Kysely<TranslatorDB>) {}

  transaction<T>(work: (trx: Transaction<TranslatorDB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  findByEmail(email: string, db: Db = this.db) {
    return db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findById(id: number) {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertAccount(db: Db, account: { email: string; name: string; passwordHash: string | null }) {
    const row = await db
      .insertInto('accounts')
      .values({
        email: account.email,
        name: account.name,
        password_hash: account.passwordHash,
        created_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async setPassword(db: Db, accountId: number, passwordHash: string) {
    await db
      .updateTable('accounts')
      .set({ password_hash: passwordHash })
      .where('id', '=', accountId)
      .execute();
  }

  // Sessions

  async insertSession(row: TranslatorDB['account_sessions'], db: Db = this.db) {
    await db.insertInto('account_sessions').values(row).execute();
  }

  findSession(idHash: string, now: number) {
    return this.db
      .selectFrom('account_sessions as s')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .select(['s.account_id', 's.csrf_token', 's.id_token', 's.expires_at', 'a.email', 'a.name'])
      .where('s.id_hash', '=', idHash)
      .where('s.expires_at', '>', now)
      .executeTakeFirst();
  }

  async setSessionExpiry(idHash: string, expiresAt: number) {
    await this.db
      .updateTable('account_sessions')
      .set({ expires_at: expiresAt })
      .where('id_hash', '=', idHash)
      .execute();
  }

  async deleteSession(idHash: string) {
    await this.db.deleteFrom('account_sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteExpiredSessions(now: number) {
    await this.db.deleteFrom('account_sessions').where('expires_at', '<=', now).execute();
  }

  // Memberships

  async membership(projectId: number, accountId: number, db: Db = this.db) {
    const row = await db
      .selectFrom('project_members')
      .select(['role', 'languages'])
      .where('project_id', '=', projectId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row && { role: row.role, languages: languagesOf(row.languages) };
  }

  /** The projects an account belongs to, with its role in each. */
  async projectsOf(accountId: number) {
    const rows = await this.db
      .selectFrom('project_members as m')
      .innerJoin('projects as p', 'p.id', 'm.project_id')
      .select(['p.id', 'p.name', 'm.role', 'm.languages'])
      .where('m.account_id', '=', accountId)
      .orderBy('p.id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      role: row.role,
      languages: languagesOf(row.languages),
    }));
  }

  async members(projectId: number): Promise<MemberRow[]> {
    const rows = await this.db
      .selectFrom('project_members as m')
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .select(['a.id', 'a.email', 'a.name', 'm.role', 'm.languages'])
      .where('m.project_id', '=', projectId)
      .orderBy('a.email')
      .execute();
    return rows.map((row) => ({
      accountId: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      languages: languagesOf(row.languages),
    }));
  }

  /** Adds the account to the project, or gives it the new role when it is a member already. */
  async upsertMember(db: Db, projectId: number, accountId: number, role: MemberRole, languages: string[]) {
    await db
      .insertInto('project_members')
      .values({
        project_id: projectId,
        account_id: accountId,
        role,
        languages: JSON.stringify(languages),
        created_at: nowIso(),
      })
      .onConflict((oc) =>
        oc.columns(['project_id', 'account_id']).doUpdateSet({ role, languages: JSON.stringify(languages) }),
      )
      .execute();
  }

  async updateMember(db: Db, projectId: number, accountId: number, role: MemberRole, languages: string[]) {
    const result = await db
      .updateTable('project_members')
      .set({ role, languages: JSON.stringify(languages) })
      .where('project_id', '=', projectId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteMember(db: Db, projectId: number, accountId: number) {
    const result = await db
      .deleteFrom('project_members')
      .where('project_id', '=', projectId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Owners of the project, read under the transaction's lock of the project row (see lockProject). */
  async ownerCount(db: Db, projectId: number) {
    const row = await db
      .selectFrom('project_members')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('project_id', '=', projectId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Serialises membership changes of one project (PostgreSQL; SQLite writers are serial anyway). */
  async lockProject(trx: Transaction<TranslatorDB>, projectId: number, dialect: 'sqlite' | 'postgres') {
    if (dialect !== 'postgres') return;
    await trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().execute();
  }

  // Invitations

  /** A new invitation to the same address replaces the one before (whose link stops working). */
  insertInvite(invite: Omit<TranslatorDB['project_invites'], 'id'>) {
    return this.transaction(async (trx) => {
      await trx
        .deleteFrom('project_invites')
        .where('project_id', '=', invite.project_id)
        .where('email', '=', invite.email)
        .execute();
      const row = await trx
        .insertInto('project_invites')
        .values(invite)
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  async invites(projectId: number, now: string): Promise<InviteRow[]> {
    const rows = await this.db
      .selectFrom('project_invites')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('expires_at', '>', now)
      .orderBy('id')
      .execute();
    return rows.map(toInvite);
  }

  async inviteByToken(tokenHash: string, now: string, db: Db = this.db) {
    const row = await db
      .selectFrom('project_invites as i')
      .innerJoin('projects as p', 'p.id', 'i.project_id')
      .selectAll('i')
      .select('p.name as project_name')
      .where('i.token_hash', '=', tokenHash)
      .where('i.expires_at', '>', now)
      .executeTakeFirst();
    return row && { ...toInvite(row), projectName: row.project_name };
  }

  async deleteInvite(db: Db, projectId: number, id: number) {
    const result = await db
      .deleteFrom('project_invites')
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

function toInvite(row: Omit<TranslatorDB['project_invites'], 'id'> & { id: number }): InviteRow {
  return {
    id: row.id,
    projectId: row.project_id,
    email: row.email,
    role: row.role,
    languages: languagesOf(row.languages),
    invitedBy: row.invited_by,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}
