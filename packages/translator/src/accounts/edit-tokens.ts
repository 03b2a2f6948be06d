import { createHmac } from 'node:crypto';
import { safeEqual, sha256Hex } from '@app/server-kit';

export const EDIT_TOKEN_HEADER = 'x-edit-token';
const PREFIX = 'tet_';
export const EDIT_TOKEN_TTL_MS = 30 * 60_000;

export interface EditGrant {
  projectId: number;
  accountId: number;
  /** The page origin the token was made for: it works only in requests from there. */
  origin: string;
  expiresAt: number;
}

/**
 * Short-lived tokens that let a signed-in member edit translations on the live page: the page runs on
 * another origin, where the dashboard's session cookie does not go. A token names the project, the
 * account and the page origin it was made for, and expires; it is signed (HMAC-SHA256 under a key
 * derived from SECRET_KEY), not stored, and every use checks the account's role again, so removing a
 * member stops their tokens at once. A page on another origin that gets hold of one cannot use it from
 * a browser (its requests carry its own Origin).
 */
export class EditTokens {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(sha256Hex(`translator-edit-token:${secretKey}`), 'hex');
  }

  private sign(payload: string) {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  issue(
    projectId: number,
    accountId: number,
    origin: string,
    now = Date.now(),
  ): { token: string; origin: string; expiresAt: string } {
    const expiresAt = now + EDIT_TOKEN_TTL_MS;
    const payload = `${projectId}.${accountId}.${expiresAt}.${Buffer.from(origin).toString('base64url')}`;
    return {
      token: `${PREFIX}${payload}.${this.sign(payload)}`,
      origin,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** The grant of a token that this deployment signed and that has not expired. */
  verify(token: string, now = Date.now()): EditGrant | undefined {
    const match = /^tet_((\d{1,10})\.(\d{1,10})\.(\d{1,15})\.([\w-]{1,400}))\.([\w-]{43})$/.exec(token);
    if (!match) return undefined;
    const [, payload, project, account, expires, origin, signature] = match;
    if (!safeEqual(signature!, this.sign(payload!))) return undefined;
    const grant = {
      projectId: Number(project),
      accountId: Number(account),
      origin: Buffer.from(origin!, 'base64url').toString('utf8'),
      expiresAt: Number(expires),
    };
    return grant.expiresAt > now ? grant : undefined;
  }
}
