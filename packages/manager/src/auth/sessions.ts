import { randomToken, sha256Hex } from '@app/server-kit';
import { nowIso } from '../common/time.ts';
import type { Transaction } from 'kysely';
import type { ManagerDB } from '../db/schema.ts';
import type { SessionsRepository } from './sessions-repository.ts';

export const SESSION_COOKIE = 'connect.sid';
const SIGNED_IN_TTL_MS = 7 * 24 * 3600_000;

/** State kept server-side between requests of one signed-in browser. */
export interface SessionData {
  /** The identity provider's ID token, for its logout. */
  idToken?: string;
}

export interface Session {
  token: string;
  uidNumber: number | null;
  csrfToken: string;
  data: SessionData;
  expiresAt: number;
}

/**
 * Session rows of signed-in browsers, keyed by the SHA-256 of the cookie value. (A browser that has
 * not signed in keeps what it needs in its cookie: see PreSessions.)
 */
export class SessionStore {
  constructor(private readonly repo: SessionsRepository) {}

  async create(uidNumber: number, data: SessionData = {}, db?: Transaction<ManagerDB>): Promise<Session> {
    const session: Session = {
      token: randomToken(32),
      uidNumber,
      csrfToken: randomToken(24),
      data,
      expiresAt: Date.now() + SIGNED_IN_TTL_MS,
    };
    await this.repo.insert(
      {
        id_hash: sha256Hex(session.token),
        uid_number: uidNumber,
        csrf_token: session.csrfToken,
        data: JSON.stringify(data),
        expires_at: session.expiresAt,
        created_at: nowIso(),
      },
      db,
    );
    return session;
  }

  async find(token: string): Promise<Session | undefined> {
    const row = await this.repo.findUnexpired(sha256Hex(token), Date.now());
    if (!row) return undefined;
    return {
      token,
      uidNumber: row.uid_number,
      csrfToken: row.csrf_token,
      data: JSON.parse(row.data) as SessionData,
      expiresAt: Number(row.expires_at),
    };
  }

  /** Slides a signed-in session's expiry, writing only when less than half its lifetime is left. */
  async extend(session: Session): Promise<void> {
    if (session.uidNumber === null || session.expiresAt - Date.now() > SIGNED_IN_TTL_MS / 2) return;
    session.expiresAt = Date.now() + SIGNED_IN_TTL_MS;
    await this.repo.setExpiry(sha256Hex(session.token), session.expiresAt);
  }

  async destroy(token: string, db?: Transaction<ManagerDB>): Promise<void> {
    await this.repo.delete(sha256Hex(token), db);
  }

  async destroyForUser(uidNumber: number): Promise<void> {
    await this.repo.deleteForUser(uidNumber);
  }

  async purgeExpired(): Promise<void> {
    await this.repo.deleteExpired(Date.now());
  }
}
