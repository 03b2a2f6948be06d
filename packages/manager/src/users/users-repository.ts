import {
  sql,
  type ExpressionBuilder,
  type Kysely,
  type Selectable,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { ManagerDB, UsersTable } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';

export const DEFAULT_GROUP_GID = 2000;
export const ADMIN_GROUP_GID = 2001;

export type UserStatus = UsersTable['status'];

export interface UserGroupRef {
  gidNumber: number;
  cn: string;
  isAdmin: boolean;
}

export interface User {
  uidNumber: number;
  uid: string;
  givenName: string;
  sn: string;
  cn: string;
  mail: string;
  status: UserStatus;
  groups: UserGroupRef[];
  isAdmin: boolean;
}

export type UserRow = Selectable<UsersTable>;
type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/** `1` when the user of the outer `users` row belongs to an administrative group. */
export function isAdminExpression(eb: ExpressionBuilder<ManagerDB, 'users'>) {
  return eb
    .case()
    .when(
      eb.exists(
        eb
          .selectFrom('user_groups')
          .innerJoin('groups', 'groups.gid_number', 'user_groups.gid_number')
          .whereRef('user_groups.uid_number', '=', 'users.uid_number')
          .where('groups.is_admin', '=', 1)
          .select(sql`1`.as('one')),
      ),
    )
    .then(1)
    .else(0)
    .end();
}

export const fullName = (givenName: string, sn: string) => `${givenName} ${sn}`.trim();

/**
 * The username behind a uidNumber column of the outer query (`table.column`): the user's, or for a
 * deleted user the name it had — never that of a newcomer who took the name since.
 */
export function usernameOf(column: string) {
  const ref = sql.ref(column);
  return sql<string | null>`coalesce(
    (select named.uid from users named where named.uid_number = ${ref}),
    (select former.uid from deleted_users former where former.uid_number = ${ref}))`;
}

export class UsersRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  findByUid(uid: string, db: Db = this.db) {
    return db.selectFrom('users').selectAll().where('uid', '=', uid).executeTakeFirst();
  }

  findByMail(mail: string, db: Db = this.db) {
    return db.selectFrom('users').selectAll().where('mail', '=', mail.toLowerCase()).executeTakeFirst();
  }

  /** The uidNumbers of these usernames (of current users; unknown names are left out). */
  async numbersOf(uids: string[], db: Db = this.db): Promise<Map<string, number>> {
    if (!uids.length) return new Map();
    const rows = await db
      .selectFrom('users')
      .select(['uid', 'uid_number'])
      .where('uid', 'in', uids)
      .execute();
    return new Map(rows.map((row) => [row.uid, row.uid_number]));
  }

  findByNumber(uidNumber: number, db: Db = this.db) {
    return db.selectFrom('users').selectAll().where('uid_number', '=', uidNumber).executeTakeFirst();
  }

  /** The usernames that begin with `prefix` (a LIKE pattern), to pick a free one. */
  async uidsStartingWith(db: Db, prefix: string): Promise<string[]> {
    const rows = await db.selectFrom('users').select('uid').where('uid', 'like', `${prefix}%`).execute();
    return rows.map((row) => row.uid);
  }

  /** The active user with this number and whether they are an administrator. */
  activePrincipal(uidNumber: number) {
    return this.db
      .selectFrom('users')
      .select((eb) => ['uid_number', 'uid', isAdminExpression(eb).as('is_admin')])
      .where('uid_number', '=', uidNumber)
      .where('status', '=', 'active')
      .executeTakeFirst();
  }

  async countUsers(db: Db = this.db): Promise<number> {
    const row = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** How many active users belong to an administrative group. */
  async countActiveAdmins(db: Db = this.db): Promise<number> {
    const row = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'active')
      .where((eb) => eb(isAdminExpression(eb), '=', 1))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The uidNumbers of the active administrators. */
  async activeAdminNumbers(db: Db = this.db): Promise<number[]> {
    const rows = await this.activeAdmins(db).select('uid_number').execute();
    return rows.map((row) => row.uid_number);
  }

  private activeAdmins(db: Db) {
    return db
      .selectFrom('users')
      .where('status', '=', 'active')
      .where((eb) => eb(isAdminExpression(eb), '=', 1));
  }

  /** The e-mail addresses of the active administrators. */
  async activeAdminMails(): Promise<string[]> {
    const rows = await this.activeAdmins(this.db).select('mail').execute();
    return rows.map((row) => row.mail);
  }

  async countWithStatus(status: UserStatus): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', status)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Users with their groups; all users, or those whose numbers are given. */
  async withGroups(rows: UserRow[], db: Db = this.db): Promise<User[]> {
    if (!rows.length) return [];
    const memberships = await db
      .selectFrom('user_groups')
      .innerJoin('groups', 'groups.gid_number', 'user_groups.gid_number')
      .select(['user_groups.uid_number', 'groups.gid_number', 'groups.cn', 'groups.is_admin'])
      .where(
        'user_groups.uid_number',
        'in',
        rows.map((row) => row.uid_number),
      )
      .orderBy('groups.gid_number')
      .execute();
    return rows.map((row) => {
      const groups = memberships
        .filter((m) => m.uid_number === row.uid_number)
        .map((m) => ({ gidNumber: m.gid_number, cn: m.cn, isAdmin: Boolean(m.is_admin) }));
      return {
        uidNumber: row.uid_number,
        uid: row.uid,
        givenName: row.given_name,
        sn: row.sn,
        cn: row.cn,
        mail: row.mail,
        status: row.status,
        groups,
        isAdmin: groups.some((group) => group.isAdmin),
      };
    });
  }

  async list(db: Db = this.db): Promise<User[]> {
    return this.withGroups(await db.selectFrom('users').selectAll().orderBy('uid_number').execute(), db);
  }

  /**
   * Inserts a user with a uidNumber never handed out before: the persisted high-water mark, raised in
   * the caller's transaction (concurrent inserts wait for each other on its row), so the number of a
   * deleted user is never reused.
   */
  async insert(
    db: Db,
    values: Omit<UserRow, 'uid_number' | 'created_at' | 'updated_at' | 'cn'>,
  ): Promise<UserRow> {
    const { last_value: uidNumber } = await db
      .updateTable('id_counters')
      .set((eb) => ({ last_value: eb('last_value', '+', 1) }))
      .where('name', '=', 'uid_number')
      .returning('last_value')
      .executeTakeFirstOrThrow();
    const now = nowIso();
    const row: UserRow = {
      ...values,
      mail: values.mail.toLowerCase(),
      cn: fullName(values.given_name, values.sn),
      uid_number: uidNumber,
      created_at: now,
      updated_at: now,
    };
    await db.insertInto('users').values(row).execute();
    return row;
  }

  async update(db: Db, uidNumber: number, values: Updateable<UsersTable>): Promise<void> {
    await db.updateTable('users').set(values).where('uid_number', '=', uidNumber).execute();
  }

  /** Usernames and addresses of the active users, by username. */
  activeRecipients(): Promise<{ uid: string; mail: string }[]> {
    return this.db
      .selectFrom('users')
      .select(['uid', 'mail'])
      .where('status', '=', 'active')
      .orderBy('uid')
      .execute();
  }

  /** PostgreSQL only: holds off other writers of `users` until the transaction ends. */
  async lockForWrites(trx: Transaction<ManagerDB>): Promise<void> {
    await sql`lock table users in share row exclusive mode`.execute(trx);
  }

  setPasswordHash(db: Db, uidNumber: number, passwordHash: string): Promise<void> {
    return this.update(db, uidNumber, { password_hash: passwordHash, updated_at: nowIso() });
  }

  /** Removes a user, keeping the name it had for the references that outlive it. */
  async remove(db: Db, user: Pick<UserRow, 'uid_number' | 'uid'>): Promise<void> {
    await db
      .insertInto('deleted_users')
      .values({ uid_number: user.uid_number, uid: user.uid, deleted_at: nowIso() })
      .execute();
    await db.deleteFrom('users').where('uid_number', '=', user.uid_number).execute();
  }

  async setGroups(db: Db, uidNumber: number, gidNumbers: number[]): Promise<void> {
    await db.deleteFrom('user_groups').where('uid_number', '=', uidNumber).execute();
    const unique = [...new Set(gidNumbers)];
    if (unique.length) {
      await db
        .insertInto('user_groups')
        .values(unique.map((gid) => ({ uid_number: uidNumber, gid_number: gid })))
        .execute();
    }
  }
}
