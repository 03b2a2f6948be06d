import type { Kysely, Transaction } from 'kysely';
import { badRequest, notFound, type DialectName } from '@app/server-kit';
import type { ManagerDB } from '../db/schema.ts';
import { hashPassword } from '@app/server-kit/passwords';
import type { SessionStore } from '../auth/sessions.ts';
import type { PrincipalCache } from '../auth/principal-cache.ts';
import { nowIso } from '../common/time.ts';
import type { ContainersRepository } from '../containers/containers-repository.ts';
import { checkUserFields, userNotFound } from './user-rules.ts';
import { fullName, type User, type UserStatus, type UsersRepository } from './users-repository.ts';
import type { GroupsRepository } from './groups-repository.ts';
import type { LastAdminGuard } from './last-admin-guard.ts';
import { fail } from '../errors/catalogue.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { Notices } from '../notifications/notices.ts';

export interface UserInput {
  uid: string;
  givenName: string;
  sn: string;
  mail: string;
  userPassword?: string | undefined;
  status?: UserStatus | undefined;
  groupIds?: number[] | undefined;
}

export type UserUpdate = Partial<UserInput>;

/**
 * Administration of users: list, create, update (approve / suspend / groups), delete. Updates and
 * deletions that would leave no active administrator are refused (409 last_admin).
 */
export class UsersService {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly dialect: DialectName,
    readonly repo: UsersRepository,
    private readonly groups: GroupsRepository,
    private readonly sessions: SessionStore,
    private readonly principals: PrincipalCache,
    private readonly containers: ContainersRepository,
    private readonly adminGuard: LastAdminGuard,
    private readonly notices: Notices,
    private readonly audit: AuditLog,
  ) {}

  /** A self-registered account that waits for approval is announced to the administrators. */
  async announceIfWaiting(
    trx: Transaction<ManagerDB>,
    row: { uid: string; uid_number: number; status: UserStatus },
  ) {
    if (row.status === 'pending') {
      await this.notices.registrationWaiting(trx, { uid: row.uid, uidNumber: row.uid_number });
    }
  }

  countWaiting(): Promise<number> {
    return this.repo.countWithStatus('pending');
  }

  list(): Promise<User[]> {
    return this.repo.list();
  }

  async get(uidNumber: number, db: Kysely<ManagerDB> | Transaction<ManagerDB> = this.db): Promise<User> {
    const row = await this.repo.findByNumber(uidNumber, db);
    if (!row) throw notFound('User not found.');
    const [user] = await this.repo.withGroups([row], db);
    return user!;
  }

  async create(input: UserInput): Promise<User> {
    checkUserFields(input);
    const passwordHash = input.userPassword ? await hashPassword(input.userPassword) : null;
    return this.db.transaction().execute(async (trx) => {
      await this.checkGroups(trx, input.groupIds);
      const row = await this.repo.insert(trx, {
        uid: input.uid,
        given_name: input.givenName,
        sn: input.sn,
        mail: input.mail,
        password_hash: passwordHash,
        status: input.status ?? 'pending',
      });
      await this.repo.setGroups(trx, row.uid_number, input.groupIds ?? []);
      await this.audit.within(trx, { type: 'user', id: row.uid_number });
      return this.get(row.uid_number, trx);
    });
  }

  /**
   * Partial update: omitted fields keep their value; a blank password keeps the password. Deciding on a
   * waiting account (`by`, the administrator) settles the administrators' notices about it.
   */
  async update(uidNumber: number, input: UserUpdate, by?: number): Promise<User> {
    const password = input.userPassword || undefined;
    checkUserFields({ uid: input.uid, mail: input.mail, userPassword: password });
    const passwordHash = password ? await hashPassword(password) : undefined;
    const user = await this.adminGuard.write(async (trx) => {
      const current = await this.repo.findByNumber(uidNumber, trx);
      if (!current) throw notFound('User not found.');
      await this.checkGroups(trx, input.groupIds);
      const givenName = input.givenName ?? current.given_name;
      const sn = input.sn ?? current.sn;
      await this.repo.update(trx, uidNumber, {
        uid: input.uid ?? current.uid,
        given_name: givenName,
        sn,
        cn: fullName(givenName, sn),
        mail: (input.mail ?? current.mail).toLowerCase(),
        status: input.status ?? current.status,
        ...(passwordHash ? { password_hash: passwordHash } : {}),
        updated_at: nowIso(),
      });
      if (input.groupIds) await this.repo.setGroups(trx, uidNumber, input.groupIds);
      if (by !== undefined && current.status === 'pending' && input.status && input.status !== 'pending')
        await this.notices.registrationDecided(trx, uidNumber, by);
      return this.get(uidNumber, trx);
    });
    // A suspended account or a changed password ends every open session at once.
    if (user.status !== 'active' || passwordHash) await this.sessions.destroyForUser(uidNumber);
    this.principals.clear();
    return user;
  }

  /**
   * Deletes a user; their sessions, API keys and shares go with the account. A user who still owns
   * containers is kept (409 has_containers naming them) unless `reassignTo` names the user who takes
   * them over, in the same transaction.
   */
  async delete(uidNumber: number, reassignTo?: string, by?: number): Promise<void> {
    await this.adminGuard.write(async (trx) => {
      const user = await this.repo.findByNumber(uidNumber, trx);
      if (!user) throw notFound('User not found.');
      const heir = reassignTo === undefined ? undefined : await this.heir(trx, user.uid_number, reassignTo);
      const owned = await this.containers.hostnamesOwnedBy(uidNumber, trx);
      if (owned.length && !heir) throw stillOwns(user.uid, uidNumber, owned);
      if (owned.length && heir) await this.containers.reassignOwner(trx, uidNumber, heir);
      await this.repo.remove(trx, user);
      if (by !== undefined && user.status === 'pending')
        await this.notices.registrationDecided(trx, uidNumber, by);
    });
    this.principals.clear();
  }

  private async heir(trx: Transaction<ManagerDB>, leaving: number, username: string): Promise<number> {
    const name = username.trim().toLowerCase();
    const heir = await this.repo.findByUid(name, trx);
    if (!heir) throw userNotFound(name);
    if (heir.uid_number === leaving) {
      throw badRequest('Give the containers to another user.', { reassignTo: 'must name another user' });
    }
    return heir.uid_number;
  }

  activeRecipients(): Promise<{ uid: string; mail: string }[]> {
    return this.repo.activeRecipients();
  }

  private async checkGroups(trx: Transaction<ManagerDB>, gidNumbers: number[] | undefined) {
    if (!gidNumbers?.length) return;
    const unique = [...new Set(gidNumbers)];
    const found = await this.groups.existing(unique, trx);
    const missing = unique.filter((gid) => !found.includes(gid));
    if (missing.length)
      throw badRequest(`Unknown group: ${missing.join(', ')}.`, {
        groupIds: 'names a group that does not exist',
      });
  }

  /** On PostgreSQL, serialises "is this the first user?" decisions between concurrent registrations. */
  async lockUsers(trx: Transaction<ManagerDB>) {
    if (this.dialect === 'postgres') await this.repo.lockForWrites(trx);
  }
}

function stillOwns(uid: string, uidNumber: number, hostnames: string[]) {
  const shown = hostnames.slice(0, 10).join(', ');
  const more = hostnames.length > 10 ? ` and ${hostnames.length - 10} more` : '';
  const count = `${hostnames.length} container${hostnames.length === 1 ? '' : 's'}`;
  return fail(
    'has_containers',
    `${uid} still owns ${count} (${shown}${more}). Delete them, or give them to another user with ` +
      `DELETE /api/v1/users/${uidNumber}?reassignTo=<username>.`,
  );
}
