import { randomToken, sha256Hex } from '@app/server-kit';
import { nowIso } from '../common/time.ts';
import type { AccountsRepository } from './accounts-repository.ts';

export const SESSION_COOKIE = 'translator_session';
export const SESSION_TTL_MS = 7 * 24 * 3600_000;

/** A signed-in browser: whose it is, and the token its writes must carry. */
export interface AccountSession {
  token: string;
  accountId: number;
  email: string;
  name: string;
  csrfToken: string;
  idToken: string | null;
  expiresAt: number;
}

/** Sessions of signed-in dashboard users, stored by the SHA-256 of the cookie value. */
export class SessionStore {
  constructor(private readonly repo: AccountsRepository) {}

  async create(
    accountId: number,
    idToken: string | null = null,
  ): Promise<{ token: string; csrfToken: string }> {
    const token = randomToken(32);
    const csrfToken = randomToken(24);
    await this.repo.insertSession({
      id_hash: sha256Hex(token),
      account_id: accountId,
      csrf_token: csrfToken,
      id_token: idToken,
      expires_at: Date.now() + SESSION_TTL_MS,
      created_at: nowIso(),
    });
    return { token, csrfToken };
  }

  /** The session of a cookie value; its expiry slides when less than half its lifetime is left. */
  async find(token: string): Promise<AccountSession | undefined> {
    const idHash = sha256Hex(token);
    const now = Date.now();
    const row = await this.repo.findSession(idHash, now);
    if (!row) return undefined;
    let expiresAt = Number(row.expires_at);
    if (expiresAt - now < SESSION_TTL_MS / 2) {
      expiresAt = now + SESSION_TTL_MS;
      await this.repo.setSessionExpiry(idHash, expiresAt);
    }
    return {
      token,
      accountId: row.account_id,
      email: row.email,
      name: row.name,
      csrfToken: row.csrf_token,
      idToken: row.id_token,
      expiresAt,
    };
  }

  async destroy(token: string) {
    await this.repo.deleteSession(sha256Hex(token));
  }

  purgeExpired() {
    return this.repo.deleteExpiredSessions(Date.now());
  }
}
