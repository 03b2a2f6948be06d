import type { Insertable, Kysely, Transaction } from 'kysely';
import type { InviteTokensTable, ManagerDB, PasswordResetTokensTable } from '../db/schema.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/** `invite_tokens` and `password_reset_tokens`: one-time tokens, looked up by their hash. */
export class TokensRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  async insertInvite(values: Insertable<InviteTokensTable>, db: Db = this.db): Promise<void> {
    await db.insertInto('invite_tokens').values(values).execute();
  }

  /** The invitation with this hash, unless it was used or expired by `now`. */
  findUsableInvite(tokenHash: string, now: number) {
    return this.db
      .selectFrom('invite_tokens')
      .select(['id', 'email'])
      .where('token_hash', '=', tokenHash)
      .where('used', '=', 0)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Marks an invitation used; false when it already was. */
  markInviteUsed(db: Db, id: string): Promise<boolean> {
    return markUsed(db, 'invite_tokens', id);
  }

  async insertReset(values: Insertable<PasswordResetTokensTable>): Promise<void> {
    await this.db.insertInto('password_reset_tokens').values(values).execute();
  }

  /** The reset token with this hash and its user, unless it was used or expired by `now`. */
  findUsableReset(tokenHash: string, now: number) {
    return this.db
      .selectFrom('password_reset_tokens')
      .innerJoin('users', 'users.uid_number', 'password_reset_tokens.uid_number')
      .select(['password_reset_tokens.id', 'users.uid_number', 'users.uid'])
      .where('password_reset_tokens.token_hash', '=', tokenHash)
      .where('password_reset_tokens.used', '=', 0)
      .where('password_reset_tokens.expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Marks a reset token used; false when it already was. */
  markResetUsed(db: Db, id: string): Promise<boolean> {
    return markUsed(db, 'password_reset_tokens', id);
  }
}

async function markUsed(
  db: Db,
  table: 'invite_tokens' | 'password_reset_tokens',
  id: string,
): Promise<boolean> {
  const result = await db
    .updateTable(table)
    .set({ used: 1 })
    .where('id', '=', id)
    .where('used', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
