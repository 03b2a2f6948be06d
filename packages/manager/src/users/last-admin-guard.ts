import type { Kysely, Transaction } from 'kysely';
import type { DialectName } from '@app/server-kit';
import type { ManagerDB } from '../db/schema.ts';
import { fail } from '../errors/catalogue.ts';
import type { UsersRepository } from './users-repository.ts';
import type { AuditLog } from '../audit/audit-log.ts';

/** Keeps at least one active administrator through writes to users, memberships and groups. */
export class LastAdminGuard {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly dialect: DialectName,
    private readonly users: UsersRepository,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Runs `write` in one transaction and rolls it back with 409 last_admin when it leaves no active
   * administrator where there was one. On PostgreSQL the users lock makes concurrent guarded writes
   * take turns, so two of them cannot each count the other's administrator as the one that stays.
   * The current request's audit entry is written in the same transaction.
   */
  write<T>(write: (trx: Transaction<ManagerDB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') await this.users.lockForWrites(trx);
      const before = await this.users.countActiveAdmins(trx);
      const result = await write(trx);
      if (before > 0 && (await this.users.countActiveAdmins(trx)) === 0) {
        throw fail(
          'last_admin',
          'No active administrator would be left: make another user an administrator first.',
        );
      }
      await this.audit.within(trx);
      return result;
    });
  }
}
