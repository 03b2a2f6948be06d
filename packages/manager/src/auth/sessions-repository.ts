import type { Insertable, Kysely, Transaction } from 'kysely';
import type { ManagerDB, SessionsTable } from '../db/schema.ts';

/** `sessions`: the rows of signed-in browsers, keyed by the hash of their cookie value. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  async insert(
    values: Insertable<SessionsTable>,
    db: Kysely<ManagerDB> | Transaction<ManagerDB> = this.db,
  ): Promise<void> {
    await db.insertInto('sessions').values(values).execute();
  }

  /** The session with this hash unless it expired by `now`. */
  findUnexpired(idHash: string, now: number) {
    return this.db
      .selectFrom('sessions')
      .select(['uid_number', 'csrf_token', 'data', 'expires_at'])
      .where('id_hash', '=', idHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async setExpiry(idHash: string, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ expires_at: expiresAt })
      .where('id_hash', '=', idHash)
      .execute();
  }

  async delete(idHash: string, db: Kysely<ManagerDB> | Transaction<ManagerDB> = this.db): Promise<void> {
    await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteForUser(uidNumber: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('uid_number', '=', uidNumber).execute();
  }

  async deleteExpired(now: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }
}
