import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { randomToken, sha256Hex } from '@app/server-kit';
import type { ManagerDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';

export const INVITE_TTL_MS = 24 * 3600_000;
export const RESET_TTL_MS = 3600_000;

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/** One-time invitation and password-reset tokens, stored as SHA-256 hashes. */
export class TokenStore {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  async createInvite(email: string): Promise<string> {
    const token = randomToken(32);
    await this.db
      .insertInto('invite_tokens')
      .values({
        id: randomUUID(),
        email: email.toLowerCase(),
        token_hash: sha256Hex(token),
        expires_at: Date.now() + INVITE_TTL_MS,
        used: 0,
        created_at: nowIso(),
      })
      .execute();
    return token;
  }

  findInvite(token: string, db: Db = this.db) {
    return db
      .selectFrom('invite_tokens')
      .select(['id', 'email'])
      .where('token_hash', '=', sha256Hex(token))
      .where('used', '=', 0)
      .where('expires_at', '>', Date.now())
      .executeTakeFirst();
  }

  /** Marks a token used; false when another request used it first. */
  async useInvite(db: Db, id: string): Promise<boolean> {
    const result = await db
      .updateTable('invite_tokens')
      .set({ used: 1 })
      .where('id', '=', id)
      .where('used', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async createReset(uidNumber: number): Promise<string> {
    const token = randomToken(32);
    await this.db
      .insertInto('password_reset_tokens')
      .values({
        id: randomUUID(),
        uid_number: uidNumber,
        token_hash: sha256Hex(token),
        expires_at: Date.now() + RESET_TTL_MS,
        used: 0,
        created_at: nowIso(),
      })
      .execute();
    return token;
  }

  findReset(token: string, db: Db = this.db) {
    return db
      .selectFrom('password_reset_tokens')
      .innerJoin('users', 'users.uid_number', 'password_reset_tokens.uid_number')
      .select(['password_reset_tokens.id', 'users.uid_number', 'users.uid'])
      .where('password_reset_tokens.token_hash', '=', sha256Hex(token))
      .where('password_reset_tokens.used', '=', 0)
      .where('password_reset_tokens.expires_at', '>', Date.now())
      .executeTakeFirst();
  }

  async useReset(db: Db, id: string): Promise<boolean> {
    const result = await db
      .updateTable('password_reset_tokens')
      .set({ used: 1 })
      .where('id', '=', id)
      .where('used', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
