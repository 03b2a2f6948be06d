import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { randomToken, sha256Hex } from '@app/server-kit';
import type { ManagerDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { TokensRepository } from './tokens-repository.ts';

export const INVITE_TTL_MS = 24 * 3600_000;
export const RESET_TTL_MS = 3600_000;

/** One-time invitation and password-reset tokens, stored as SHA-256 hashes. */
export class TokenStore {
  constructor(private readonly repo: TokensRepository) {}

  async createInvite(email: string, db?: Transaction<ManagerDB>): Promise<string> {
    const token = randomToken(32);
    await this.repo.insertInvite(
      {
        id: randomUUID(),
        email: email.toLowerCase(),
        token_hash: sha256Hex(token),
        expires_at: Date.now() + INVITE_TTL_MS,
        used: 0,
        created_at: nowIso(),
      },
      db,
    );
    return token;
  }

  findInvite(token: string) {
    return this.repo.findUsableInvite(sha256Hex(token), Date.now());
  }

  /** Marks a token used; false when another request used it first. */
  useInvite(trx: Transaction<ManagerDB>, id: string): Promise<boolean> {
    return this.repo.markInviteUsed(trx, id);
  }

  async createReset(uidNumber: number): Promise<string> {
    const token = randomToken(32);
    await this.repo.insertReset({
      id: randomUUID(),
      uid_number: uidNumber,
      token_hash: sha256Hex(token),
      expires_at: Date.now() + RESET_TTL_MS,
      used: 0,
      created_at: nowIso(),
    });
    return token;
  }

  findReset(token: string) {
    return this.repo.findUsableReset(sha256Hex(token), Date.now());
  }

  useReset(trx: Transaction<ManagerDB>, id: string): Promise<boolean> {
    return this.repo.markResetUsed(trx, id);
  }
}
